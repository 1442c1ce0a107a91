package unbounded

import (
	"io"
	"sync"
)

// A buffer grown in one function and put back by another (a Release
// method): the Put cannot see the growth, the pool can
// (Basekick-Labs/arc#817).
var payloadPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 64<<10)
	return &b
}}

type payload struct {
	bp   *[]byte
	Data []byte
}

func readPayload(r io.Reader) (*payload, error) {
	bp := payloadPool.Get().(*[]byte)
	buf := (*bp)[:0]
	var chunk [4096]byte
	for {
		n, err := r.Read(chunk[:])
		buf = append(buf, chunk[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	*bp = buf
	return &payload{bp: bp, Data: buf}, nil
}

func (p *payload) Release() {
	if p.bp == nil {
		return
	}
	*p.bp = (*p.bp)[:0]
	payloadPool.Put(p.bp) // want `p.bp \(\*\[\]byte\) is put into the pool without a capacity check`
	p.bp, p.Data = nil, nil
}

// The same with a bound at the Put: not reported.
var boundedPayloadPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 64<<10)
	return &b
}}

type boundedPayload struct {
	bp *[]byte
}

func readBounded(r io.Reader) (*boundedPayload, error) {
	bp := boundedPayloadPool.Get().(*[]byte)
	buf := (*bp)[:0]
	var chunk [4096]byte
	for {
		n, err := r.Read(chunk[:])
		buf = append(buf, chunk[:n]...)
		if err != nil {
			break
		}
	}
	*bp = buf
	return &boundedPayload{bp: bp}, nil
}

func (p *boundedPayload) Release() {
	if p.bp == nil || cap(*p.bp) > 1<<20 {
		return
	}
	*p.bp = (*p.bp)[:0]
	boundedPayloadPool.Put(p.bp)
	p.bp = nil
}

// One append of the caller's data, whose size the function checks, in a
// buffer put back by another function: not reported (klauspost/compress
// s2's skippable blocks).
var frameBufPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 4096)
	return &b
}}

const maxFrame = 1 << 16

func queueFrame(out chan<- *[]byte, data []byte) bool {
	if len(data) > maxFrame {
		return false
	}
	bp := frameBufPool.Get().(*[]byte)
	*bp = append((*bp)[:0], data...)
	out <- bp
	return true
}

func drainFrames(in <-chan *[]byte, w func([]byte)) {
	for bp := range in {
		w(*bp)
		*bp = (*bp)[:0]
		frameBufPool.Put(bp)
	}
}
