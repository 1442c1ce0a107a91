// Package fixed is the fixed twin of corpusheld8/dns1006: the obvious fix
// from the review, an upper bound on the map put back (as fmt bounds its
// buffer), so a map grown by one huge message is left to the GC.
package fixed

import (
	"strings"
	"sync"
)

const (
	maxCompressionOffset = 2 << 13
	maxPooledEntries     = 256
)

var compressionPool = sync.Pool{
	New: func() interface{} { return make(map[string]uint16) },
}

type RR struct {
	Name string
	Data []byte
}

type Msg struct {
	Answer   []RR
	Compress bool
}

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

func (m *Msg) Pack() []byte {
	if !m.Compress {
		return m.pack(map[string]uint16{})
	}
	compression := compressionPool.Get().(map[string]uint16)
	out := m.pack(compression)
	if len(compression) > maxPooledEntries {
		return out
	}
	for k := range compression {
		delete(compression, k)
	}
	compressionPool.Put(compression)
	return out
}
