package bytepool

import (
	"bytes"
	"fmt"
	"sync"
	"unsafe"

	"github.com/poolkit/pool/internal/pooldebug"
)

// Poisoning (POOLDEBUG=poison=1).
//
// Put fills the whole class-size capacity of a slice it files, and Free the
// storage of a Buffer it keeps idle, with poisonByte; the Get or GetBuffer
// that hands the memory out again checks that every byte still holds it. A
// write after Put is reported there (pooldebug.KindPoison, "modified after
// Put", with the capacity and the first modified offset): with the default
// reporter that panics; with a reporter set, the memory is dropped and the
// caller gets a fresh slice.
//
// Only memory poisoned under the current settings is checked: slices that
// were idle before poison was turned on (pool.SetDebug) hold anything. So
// the pool remembers which idle slices it poisoned, by data pointer, in a
// set that is cleared when the settings change. Entries of slices that
// leave the pool without a Get (budget drops, GC trimming) stay until then
// or until the set reaches maxPoisoned entries and is cleared: a cleared
// entry only means one slice goes unchecked, never a false report.
//
// With debug off, Get and Put read pooldebug.On and nothing else.

// Sub-slices (any POOLDEBUG setting).
//
// Put files a slice under the class of its capacity and keeps the slice, so
// the pool keeps alive the whole allocation the slice points into while its
// budget counts only the class size: a Put of b[len(b)-100:] of a 64 KiB
// buffer pins 64 KiB as 96 bytes. Put cannot know where a slice's
// allocation starts in general (the runtime does not export it), but in
// debug mode it refuses a slice whose address proves that it does not
// start an allocation of its capacity: every Go heap allocation of 16 bytes
// or more starts at a multiple of 8, and one of more than 32 KiB (a large
// object, in a span of its own) at a multiple of the runtime's 8 KiB page.
// Such a Put is reported (pooldebug.KindSubslice, "Put of a sub-slice": the default reporter panics; with a
// reporter set it is dropped and counted in Stats.Drops.Subslice). A
// sub-slice that starts at an aligned offset, and a head sub-slice
// b[:n:n] (its start is the allocation's, its capacity hides the rest), are
// not detected.

// Alignments of the starts of Go heap allocations (see above).
const (
	heapAlign     = 8
	largeObject   = 32 << 10 // the runtime's largest small-object size
	largeObjAlign = 8 << 10  // the runtime's page size
)

// startsAllocation reports whether b, of capacity at least MinSize, may
// start a Go heap allocation of its capacity: false proves it does not.
func startsAllocation(b []byte) bool {
	p := dataPtr(b)
	if p%heapAlign != 0 {
		return false
	}
	return cap(b) <= largeObject || p%largeObjAlign == 0
}

// debugPut runs Put's debug checks on b, about to be filed under class c,
// and poisons it; it reports false if b must be dropped. Debug path: called
// only when pooldebug.On is set.
func (s *state) debugPut(b []byte, c *class) bool {
	if !startsAllocation(b) {
		s.dropSubslice.Add(1)
		pooldebug.Report(pooldebug.KindSubslice, "[]byte", fmt.Sprintf(
			"bytepool.Put: []byte (cap %d, data %#x) does not start where its allocation starts: "+
				"the pool would keep the whole allocation alive while counting %d bytes; Put the slice that Get returned",
			cap(b), dataPtr(b), c.size), "")
		return false
	}
	s.poison(b[:c.size])
	return true
}

// poisonByte is the pattern: odd, high bit set, neither 0 nor 0xff, so that
// it differs from zeroing, from memset to -1 and from ASCII text.
const poisonByte = 0xa5

// maxPoisoned bounds the set of poisoned idle slices.
const maxPoisoned = 1 << 20

// poisonChunk is a run of the pattern to copy from and compare with.
var poisonChunk = bytes.Repeat([]byte{poisonByte}, 4096)

// poisonSet is the bookkeeping of a pool's poisoned idle slices.
type poisonSet struct {
	mu    sync.Mutex
	epoch uint64               // pooldebug.Epoch when idle was last valid; guarded by mu
	idle  map[uintptr]struct{} // data pointers of poisoned idle slices; guarded by mu
}

// syncEpoch forgets the slices poisoned under earlier settings; mu held.
func (ps *poisonSet) syncEpoch() {
	if e := pooldebug.Epoch.Load(); ps.epoch != e {
		ps.epoch = e
		clear(ps.idle)
	}
}

// dataPtr identifies b's memory.
func dataPtr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// poison fills b, a slice about to be cached (len(b) is its class size),
// with the pattern if poison=1 is set, and remembers it. Debug path: called
// only when pooldebug.On is set.
func (s *state) poison(b []byte) {
	if !pooldebug.Current().Poison || len(b) == 0 {
		return
	}
	for i := 0; i < len(b); i += len(poisonChunk) {
		copy(b[i:], poisonChunk)
	}
	ps := &s.poisoned
	ps.mu.Lock()
	ps.syncEpoch()
	if ps.idle == nil || len(ps.idle) >= maxPoisoned {
		ps.idle = make(map[uintptr]struct{})
	}
	ps.idle[dataPtr(b)] = struct{}{}
	ps.mu.Unlock()
}

// checkPoison checks b, handed out by a class of s (len(b) is its class
// size), if it was poisoned, and reports false if it was modified after Put
// and the reporter returned: the caller must then drop b. fn and what name
// the caller and the memory in the report. Debug path: called only when
// pooldebug.On is set.
func (s *state) checkPoison(b []byte, fn, what string) bool {
	if !pooldebug.Current().Poison || len(b) == 0 {
		return true
	}
	ps := &s.poisoned
	ps.mu.Lock()
	ps.syncEpoch()
	id := dataPtr(b)
	_, poisoned := ps.idle[id]
	delete(ps.idle, id)
	ps.mu.Unlock()
	if !poisoned {
		return true
	}
	for i := 0; i < len(b); i += len(poisonChunk) {
		part := b[i:min(i+len(poisonChunk), len(b))]
		if bytes.Equal(part, poisonChunk[:len(part)]) {
			continue
		}
		off := i
		for part[off-i] == poisonByte {
			off++
		}
		pooldebug.Report(pooldebug.KindPoison, "[]byte", fmt.Sprintf(
			"%s: %s (cap %d) modified after Put: byte %d is %#02x; want %#02x",
			fn, what, len(b), off, b[off], poisonByte), "")
		return false
	}
	return true
}
