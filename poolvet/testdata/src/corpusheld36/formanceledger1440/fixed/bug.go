// Package bug reproduces the shape of formancehq/ledger#1440
// (https://github.com/formancehq/ledger/pull/1440, follow-up commit
// 934250039233e195550b8fb8cc2d1a2ebf1006bf "perf(dethash): per-file pool ids + clear pooled string
// keys"): the generated deterministic marshaler of the ledger's metadata map takes a *[]string scratch
// slice from a package-level sync.Pool, fills it with the map keys, sorts them, encodes the entries in
// key order and stores the slice back. The slice is only re-sliced to [:0] on the next Get, so the
// pooled backing array keeps the string headers of the last marshal's keys (user metadata) alive for as
// long as the slot lives in the pool. The fix clears the keys before the Put.
//
// Check: noreset (the Put of the key slice that still holds the previous marshal's strings, in
// MarshalToSizedBufferDeterministicVT).
package bug

import (
	"slices"
	"sync"
)

// maxPooledKeys bounds the scratch slices kept in the pool.
const maxPooledKeys = 1024

// Map-key scratch pool: each deterministic marshal of a map<string, V> takes a *[]string, fills it,
// sorts it and returns it.
var _dethashKeyPoolString = sync.Pool{
	New: func() any { s := make([]string, 0, 16); return &s },
}

// MetadataValue is one metadata entry value.
type MetadataValue struct {
	Raw []byte
}

// SizeVT returns the encoded size of the value.
func (v *MetadataValue) SizeVT() int {
	return 1 + sov(uint64(len(v.Raw))) + len(v.Raw)
}

// MarshalToSizedBufferVT encodes the value at the end of dAtA.
func (v *MetadataValue) MarshalToSizedBufferVT(dAtA []byte) (int, error) {
	i := len(dAtA)
	i -= len(v.Raw)
	copy(dAtA[i:], v.Raw)
	i = encodeVarint(dAtA, i, uint64(len(v.Raw)))
	i--
	dAtA[i] = 0xa
	return len(dAtA) - i, nil
}

// MetadataMap is the metadata attached to accounts and transactions.
type MetadataMap struct {
	Values        map[string]*MetadataValue
	unknownFields []byte
}

// SizeVT returns the encoded size of the map.
func (m *MetadataMap) SizeVT() int {
	n := len(m.unknownFields)
	for k, v := range m.Values {
		vs := v.SizeVT()
		entry := 1 + sov(uint64(len(k))) + len(k) + 1 + sov(uint64(vs)) + vs
		n += 1 + sov(uint64(entry)) + entry
	}
	return n
}

// MarshalDeterministicVT appends the deterministic encoding of m to dAtA.
func (m *MetadataMap) MarshalDeterministicVT(dAtA []byte) []byte {
	if m == nil {
		return dAtA
	}
	sz := m.SizeVT()
	buf := make([]byte, sz)
	n, _ := m.MarshalToSizedBufferDeterministicVT(buf)
	return append(dAtA, buf[sz-n:]...)
}

// MarshalToSizedBufferDeterministicVT encodes m at the end of dAtA with the map entries in key order.
func (m *MetadataMap) MarshalToSizedBufferDeterministicVT(dAtA []byte) (int, error) {
	if m == nil {
		return 0, nil
	}
	i := len(dAtA)
	if m.unknownFields != nil {
		i -= len(m.unknownFields)
		copy(dAtA[i:], m.unknownFields)
	}
	if len(m.Values) > 0 {
		keysPtr := _dethashKeyPoolString.Get().(*[]string)
		keys := (*keysPtr)[:0]
		for k := range m.Values {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v := m.Values[k]
			baseI := i
			size, _ := v.MarshalToSizedBufferVT(dAtA[:i])
			i -= size
			i = encodeVarint(dAtA, i, uint64(size))
			i--
			dAtA[i] = 0x12
			i -= len(k)
			copy(dAtA[i:], k)
			i = encodeVarint(dAtA, i, uint64(len(k)))
			i--
			dAtA[i] = 0xa
			i = encodeVarint(dAtA, i, uint64(baseI-i))
			i--
			dAtA[i] = 0xa
		}
		if cap(keys) <= maxPooledKeys {
			clear(keys)
			*keysPtr = keys
			_dethashKeyPoolString.Put(keysPtr)
		}
	}
	return len(dAtA) - i, nil
}

func sov(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

func encodeVarint(dAtA []byte, offset int, v uint64) int {
	offset -= sov(v)
	base := offset
	for v >= 1<<7 {
		dAtA[offset] = uint8(v&0x7f | 0x80)
		v >>= 7
		offset++
	}
	dAtA[offset] = uint8(v)
	return base
}
