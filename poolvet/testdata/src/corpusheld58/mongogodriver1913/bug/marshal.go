// Source: https://github.com/mongodb/mongo-go-driver/pull/1913
// (commit 0b2f755eeff5751e5ee15e1dc5d729111eb0489a, GODRIVER-3307)
//
// Bug: in driver v2, bson.MarshalValue takes a *bytes.Buffer from the
// package-level bufPool, encodes the value into it and returns sw.Bytes().
// A deferred closure puts the buffer back into bufPool (when it is under
// 16MiB and at least half full) as the function returns, so the returned
// []byte aliases a buffer that the next Marshal/MarshalValue call reuses,
// and callers saw their marshalled values change under them (races in the
// reporter's tests after upgrading to v2).
// Fix: return a copy of the bytes (append([]byte{}, sw.Bytes()...)) instead
// of a reference into the pooled buffer, as Marshal already did.
//
// Check: useafterput (the return of sw.Bytes() lets memory of the pooled
// buffer outlive MarshalValue, whose deferred closure Puts sw into bufPool)
package bug

import (
	"bytes"
	"errors"
	"sync"
)

// Type is a BSON element type.
type Type byte

// Pool of buffers for marshalling BSON.
var bufPool = sync.Pool{
	New: func() interface{} {
		return new(bytes.Buffer)
	},
}

type valueWriter struct {
	w *bytes.Buffer
}

func newDocumentWriter(w *bytes.Buffer) *valueWriter {
	return &valueWriter{w: w}
}

func (vw *valueWriter) WriteDocumentElement(name string) (*valueWriter, error) {
	vw.w.WriteByte(0x00) // type placeholder, set by the encoder
	vw.w.WriteString(name)
	vw.w.WriteByte(0x00)
	return vw, nil
}

func (vw *valueWriter) Flush() error { return nil }

// Encoder writes a value into a valueWriter.
type Encoder struct {
	vw *valueWriter
}

var encPool = sync.Pool{
	New: func() interface{} {
		return new(Encoder)
	},
}

func (e *Encoder) Reset(vw *valueWriter) { e.vw = vw }

func (e *Encoder) Encode(val interface{}) error {
	b := e.vw.w.Bytes()
	switch v := val.(type) {
	case string:
		b[0] = 0x02
		e.vw.w.WriteString(v)
		e.vw.w.WriteByte(0x00)
	case []byte:
		b[0] = 0x05
		e.vw.w.Write(v)
	default:
		return errors.New("no encoder found")
	}
	return nil
}

// MarshalValue returns the BSON encoding of val.
func MarshalValue(val interface{}) (Type, []byte, error) {
	sw := bufPool.Get().(*bytes.Buffer)
	defer func() {
		// Proper usage of a sync.Pool requires each entry to have approximately
		// the same memory cost. To obtain this property when the stored type
		// contains a variably-sized buffer, we add a hard limit on the maximum
		// buffer to place back in the pool. We limit the size to 16MiB because
		// that's the maximum wire message size supported by any current MongoDB
		// server.
		//
		// Recycle byte slices that are smaller than 16MiB and at least half
		// occupied.
		if sw.Cap() < 16*1024*1024 && sw.Cap()/2 < sw.Len() {
			bufPool.Put(sw)
		}
	}()
	sw.Reset()
	vwFlusher := newDocumentWriter(sw)
	vw, err := vwFlusher.WriteDocumentElement("")
	if err != nil {
		return 0, nil, err
	}

	// get an Encoder and encode the value
	enc := encPool.Get().(*Encoder)
	defer encPool.Put(enc)
	enc.Reset(vw)
	if err := enc.Encode(val); err != nil {
		return 0, nil, err
	}

	// flush the bytes written because we cannot guarantee that a full document has been written
	// after the flush, *sw will be in the format
	// [value type, 0 (null byte to indicate end of empty element name), value bytes..]
	if err := vwFlusher.Flush(); err != nil {
		return 0, nil, err
	}
	typ := sw.Next(2)
	return Type(typ[0]), sw.Bytes(), nil // want `useafterput`
}
