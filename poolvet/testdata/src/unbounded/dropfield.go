package unbounded

import "sync"

type marshalBuf struct {
	buf []byte
}

func (m *marshalBuf) Marshal(p []byte) {
	m.buf = append(m.buf, p...)
}

func (m *marshalBuf) Bytes() []byte { return m.buf }

// SetBuf replaces the buffer.
func (m *marshalBuf) SetBuf(s []byte) { m.buf = s }

var marshalBufPool = sync.Pool{New: func() any { return new(marshalBuf) }}

// Silent: the grown buffer is handed to the result and dropped with
// SetBuf(nil) before the Put (golang/protobuf#953's fix).
func marshalDetached(p []byte) []byte {
	m := marshalBufPool.Get().(*marshalBuf)
	defer func() {
		m.SetBuf(nil)
		marshalBufPool.Put(m)
	}()
	m.Marshal(p)
	return m.Bytes()
}

// The grown buffer goes back with the object.
func marshalCopy(p []byte) []byte {
	m := marshalBufPool.Get().(*marshalBuf)
	m.buf = m.buf[:0]
	m.Marshal(p)
	out := append([]byte(nil), m.Bytes()...)
	marshalBufPool.Put(m) // want `m \(\*marshalBuf\) is put into the pool without a capacity check, and its field buf grows without bound`
	return out
}
