package useafterput

import (
	"bytes"
	"encoding/binary"
	"io"
	"sync"
)

var tracedRespPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func putRespBuf(b *bytes.Buffer) {
	if b.Cap() > 1<<20 {
		return
	}
	b.Reset()
	tracedRespPool.Put(b)
}

// tracedReplyOf writes the reply over the start of the body's buffer when it
// is long enough, into a new slice otherwise: either way the caller gets
// what it returns as a view of body.
func tracedReplyOf(body *bytes.Buffer, id uint64) []byte {
	var out []byte
	if body.Len() >= 10 {
		out = body.Bytes()[:10]
	} else {
		out = make([]byte, 10)
	}
	copy(out, "OK")
	binary.BigEndian.PutUint64(out[2:], id)
	return out
}

// The reply is returned past the deferred Put, on the path where tracing
// is on; a first branch on trace before must not hide the second
// (youzan/nsq 2d099a3).
func publishTraced(r io.Reader, n int64, trace bool, store func([]byte) uint64) []byte {
	b := tracedRespPool.Get().(*bytes.Buffer)
	defer putRespBuf(b)
	if _, err := io.CopyN(b, r, n); err != nil {
		return nil
	}
	body := b.Bytes()
	if trace {
		body = body[8:]
	}
	id := store(body)
	if !trace {
		return []byte("OK")
	}
	return tracedReplyOf(b, id) // want `returned value shares memory with b`
}

// Silent: the reply is always a new slice.
func freshReplyOf(body *bytes.Buffer, id uint64) []byte {
	out := make([]byte, 10)
	copy(out, body.Bytes())
	binary.BigEndian.PutUint64(out[2:], id)
	return out
}

func publishTraced2(r io.Reader, n int64, trace bool, store func([]byte) uint64) []byte {
	b := tracedRespPool.Get().(*bytes.Buffer)
	defer putRespBuf(b)
	if _, err := io.CopyN(b, r, n); err != nil {
		return nil
	}
	body := b.Bytes()
	if trace {
		body = body[8:]
	}
	id := store(body)
	if !trace {
		return []byte("OK")
	}
	return freshReplyOf(b, id)
}
