// Package bug reproduces the shape of planetscale/vtprotobuf#152
// (https://github.com/planetscale/vtprotobuf/pull/152, "features/pool: clear
// repeated bytes/string field in ResetVT"): for a pooled message with a
// repeated bytes (or string) field, the generated ResetVT kept the slice for
// reuse by truncating it to [:0], then called Reset and put the truncated
// slice back. The elements past the new length still pointed at the []byte
// values of the previous message (with UnmarshalVTUnsafe, straight into the
// caller's input buffer), so every message parked in the pool pinned the
// payload of its last use. The fix clears the slice elements before
// truncating it.
//
// Check: noreset (ResetVT, called by ReturnToVTPool before the Put, keeps
// the old element references of the repeated bytes field).
package bug

import (
	"errors"
	"sync"
)

var errTruncated = errors.New("proto: unexpected end of buffer")

// Test3 is a message with a single repeated bytes field.
type Test3 struct {
	unknownFields []byte
	Sl            [][]byte
}

// Reset is the plain protobuf reset.
func (x *Test3) Reset() {
	*x = Test3{}
}

const maxPooledItems = 1024

var vtprotoPool_Test3 = sync.Pool{
	New: func() interface{} {
		return &Test3{}
	},
}

// ResetVT clears the message but keeps the repeated field's storage.
func (m *Test3) ResetVT() { // want `noreset`
	if m != nil {
		f0 := m.Sl[:0]
		m.Reset()
		m.Sl = f0
	}
}

// ReturnToVTPool resets the message and puts it back.
func (m *Test3) ReturnToVTPool() {
	if m != nil {
		m.ResetVT()
		if cap(m.Sl) > maxPooledItems {
			return // do not park huge item slices
		}
		vtprotoPool_Test3.Put(m)
	}
}

// Test3FromVTPool takes a message from the pool.
func Test3FromVTPool() *Test3 {
	return vtprotoPool_Test3.Get().(*Test3)
}

// UnmarshalVTUnsafe decodes length-prefixed items; the items alias dAtA.
func (m *Test3) UnmarshalVTUnsafe(dAtA []byte) error {
	i := 0
	for i < len(dAtA) {
		n := int(dAtA[i])
		i++
		if i+n > len(dAtA) {
			return errTruncated
		}
		m.Sl = append(m.Sl, dAtA[i:i+n])
		i += n
	}
	return nil
}

// Count decodes a frame with a pooled message and returns the item count.
func Count(frame []byte) (int, error) {
	m := Test3FromVTPool()
	defer m.ReturnToVTPool()
	if err := m.UnmarshalVTUnsafe(frame); err != nil {
		return 0, err
	}
	return len(m.Sl), nil
}
