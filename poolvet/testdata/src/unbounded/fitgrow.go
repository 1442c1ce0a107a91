package unbounded

import (
	"encoding/binary"
	"io"
	"sync"
)

// A buffer re-made at the size read from the wire when it does not fit,
// then put back: the comparison tests whether it fits, it bounds nothing;
// and a buffer grown by binary.BigEndian.AppendUint32 and append
// (QuilibriumNetwork/monorepo#399).
var recvPool = sync.Pool{New: func() any {
	b := make([]byte, 4096)
	return &b
}}

func recvFrame(r io.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := int(binary.BigEndian.Uint32(hdr[:]))
	bp := recvPool.Get().(*[]byte)
	if cap(*bp) < n {
		*bp = make([]byte, n)
	}
	b := (*bp)[:n]
	_, err := io.ReadFull(r, b)
	out := append([]byte(nil), b...)
	recvPool.Put(bp) // want `bp \(\*\[\]byte\) is put into the pool without a capacity check`
	return out, err
}

var framePool = sync.Pool{New: func() any {
	b := make([]byte, 0, 4096)
	return &b
}}

func sendFrame(w io.Writer, msg []byte) error {
	bp := framePool.Get().(*[]byte)
	b := (*bp)[:0]
	b = binary.BigEndian.AppendUint32(b, uint32(len(msg)))
	b = append(b, msg...)
	_, err := w.Write(b)
	*bp = b[:0]
	framePool.Put(bp) // want `bp \(\*\[\]byte\) is put into the pool without a capacity check`
	return err
}

// Silent: the same, with a bound before the Put.
var recvPool2 = sync.Pool{New: func() any {
	b := make([]byte, 4096)
	return &b
}}

func recvFrameFixed(r io.Reader, n int) []byte {
	bp := recvPool2.Get().(*[]byte)
	if cap(*bp) < n {
		*bp = make([]byte, n)
	}
	b := (*bp)[:n]
	_, _ = io.ReadFull(r, b)
	out := append([]byte(nil), b...)
	if cap(*bp) <= 64<<10 {
		recvPool2.Put(bp)
	}
	return out
}

// Extended to the size the input asks for, by appending the missing length
// (whyrusleeping/cbor-gen#95): a fit test, not a bound.
var strPool = sync.Pool{New: func() any {
	b := make([]byte, 8192)
	return &b
}}

func readString(r io.Reader, n int) (string, error) {
	bp := strPool.Get().(*[]byte)
	if cap(*bp) < n {
		*bp = append((*bp)[:cap(*bp)], make([]byte, n-cap(*bp))...)
	}
	b := (*bp)[:n]
	defer strPool.Put(bp) // want `bp \(\*\[\]byte\) is put into the pool without a capacity check`
	if _, err := io.ReadFull(r, b); err != nil {
		return "", err
	}
	return string(b), nil
}

// Silent: inputs longer than the pooled size do not use the pool.
func readString2(r io.Reader, n int) (string, error) {
	if n > 8192 {
		b := make([]byte, n)
		_, err := io.ReadFull(r, b)
		return string(b), err
	}
	bp := strPool.Get().(*[]byte)
	b := (*bp)[:n]
	defer strPool.Put(bp)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", err
	}
	return string(b), nil
}
