package unbounded

import "sync"

// An arena whose list of segments grows by one per call of Allocate: put
// back with no bound, one huge message pins all its segments in the pool
// (capnproto/go-capnp#351). The range loop that truncates the segments is
// not a bound.
type arena struct {
	segs [][]byte
}

var arenaPool = sync.Pool{New: func() any { return new(arena) }}

func (a *arena) Allocate(sz int) []byte {
	seg := make([]byte, sz)
	a.segs = append(a.segs, seg)
	return seg
}

func (a *arena) Release() { // want Release:`pool:put\(0\)`
	for i := range a.segs {
		a.segs[i] = a.segs[i][:0]
	}
	a.segs = a.segs[:0]
	arenaPool.Put(a) // want `its field segs grows without bound \(Allocate appends to it\)`
}

// The fix: arenas with many segments are dropped.
type boundedArena struct {
	segs [][]byte
}

var boundedArenaPool = sync.Pool{New: func() any { return new(boundedArena) }}

func (a *boundedArena) Allocate(sz int) []byte {
	seg := make([]byte, sz)
	a.segs = append(a.segs, seg)
	return seg
}

func (a *boundedArena) Release() { // want Release:`pool:put\(0\)`
	if len(a.segs) > 8 {
		return
	}
	for i := range a.segs {
		a.segs[i] = nil
	}
	a.segs = a.segs[:0]
	boundedArenaPool.Put(a)
}
