// Package bug reproduces the shape of miekg/dns#1006
// (https://github.com/miekg/dns/pull/1006, "pool the transient maps used for
// Msg Pack, Truncate and Len"): the name-compression map built while packing
// a message was taken from a sync.Pool, emptied with a delete loop and put
// back. Review on the PR pointed out that nothing bounds the size of what is
// stored (golang/go#23199): one message with thousands of distinct names
// grows a map whose buckets stay in the pool, since deleting keys never
// shrinks a Go map.
//
// Check: unbounded (a map filled, per packed name, with a variable number of
// entries is emptied and put back into a sync.Pool with no len bound).
package bug

import (
	"strings"
	"sync"
)

const maxCompressionOffset = 2 << 13 // 14 bits of pointer

var compressionPool = sync.Pool{
	New: func() interface{} { return make(map[string]uint16) },
}

// RR is a resource record reduced to its owner name and data.
type RR struct {
	Name string
	Data []byte
}

// Msg is a DNS message reduced to its answer section.
type Msg struct {
	Answer   []RR
	Compress bool
}

// packDomainName appends name to msg, replacing any suffix seen before by a
// pointer and remembering the offsets of new suffixes in compression.
func packDomainName(name string, msg []byte, compression map[string]uint16) []byte {
	labels := strings.Split(strings.TrimSuffix(name, "."), ".")
	for i := range labels {
		suffix := strings.Join(labels[i:], ".")
		if ptr, ok := compression[suffix]; ok {
			return append(msg, byte(0xC0|ptr>>8), byte(ptr))
		}
		if off := len(msg); off < maxCompressionOffset {
			compression[suffix] = uint16(off)
		}
		msg = append(msg, byte(len(labels[i])))
		msg = append(msg, labels[i]...)
	}
	return append(msg, 0)
}

func (m *Msg) pack(compression map[string]uint16) []byte {
	var out []byte
	for _, rr := range m.Answer {
		out = packDomainName(rr.Name, out, compression)
		out = append(out, rr.Data...)
	}
	return out
}

// Pack returns the wire form of m.
func (m *Msg) Pack() []byte {
	if !m.Compress {
		return m.pack(map[string]uint16{})
	}
	compression := compressionPool.Get().(map[string]uint16)
	out := m.pack(compression)
	for k := range compression {
		delete(compression, k)
	}
	compressionPool.Put(compression) // want `unbounded`
	return out
}
