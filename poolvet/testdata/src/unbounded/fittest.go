package unbounded

import (
	"bytes"
	"context"
	"errors"
	"sync"
)

// A pooled message whose Unmarshal grows its raw buffer to the frame's
// length when it does not fit, and checks the frame's own header before
// parsing: neither comparison bounds the buffer (plgd-dev/go-coap#230).
var errShortFrame = errors.New("short frame")

type frameMsg struct {
	raw  []byte
	code byte
}

var frameMsgPool = sync.Pool{New: func() any { return new(frameMsg) }}

func (m *frameMsg) unmarshal(data []byte) error {
	m.raw = m.raw[:0]
	if len(m.raw) < len(data) {
		m.raw = append(m.raw, make([]byte, len(data)-len(m.raw))...)
	}
	copy(m.raw, data)
	m.raw = m.raw[:len(data)]
	if len(m.raw) < 2 || len(m.raw) < 2+int(m.raw[1]) {
		return errShortFrame
	}
	m.code = m.raw[0]
	return nil
}

func handleFrame(data []byte) (byte, error) {
	m := frameMsgPool.Get().(*frameMsg)
	defer frameMsgPool.Put(m) // want `m \(\*frameMsg\) is put into the pool without a capacity check, and its field raw grows without bound`
	if err := m.unmarshal(data); err != nil {
		return 0, err
	}
	return m.code, nil
}

// Silent: the type drops buffers above a bound.
type frameMsg2 struct {
	raw []byte
}

var frameMsg2Pool = sync.Pool{New: func() any { return new(frameMsg2) }}

func (m *frameMsg2) unmarshal(data []byte) {
	if len(m.raw) < len(data) {
		m.raw = append(m.raw, make([]byte, len(data)-len(m.raw))...)
	}
	m.raw = m.raw[:copy(m.raw, data)]
}

func handleFrame2(data []byte) {
	m := frameMsg2Pool.Get().(*frameMsg2)
	m.unmarshal(data)
	if cap(m.raw) > 64<<10 {
		return
	}
	frameMsg2Pool.Put(m)
}

// A generic pool wrapper whose put takes any E: the buffer is judged at the
// call (jackc/pgx#2136).
type genPool[E any] struct {
	p     sync.Pool
	reset func(E)
}

func (p *genPool[E]) get() E {
	v, _ := p.p.Get().(E)
	return v
}

func (p *genPool[E]) put(v E) {
	p.reset(v)
	p.p.Put(v)
}

var sqlBufPool = &genPool[*bytes.Buffer]{reset: (*bytes.Buffer).Reset}

func sanitize(ctx context.Context, parts []string) string {
	buf := sqlBufPool.get()
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer sqlBufPool.put(buf) // want `buf \(\*bytes.Buffer\) is put into the pool through put, which takes any object, without a capacity check`
	for _, p := range parts {
		buf.WriteString(p)
	}
	return buf.String()
}

// Silent: a size check before the Put.
func sanitize2(parts []string) string {
	buf := sqlBufPool.get()
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	for _, p := range parts {
		buf.WriteString(p)
	}
	s := buf.String()
	if buf.Cap() <= 64<<10 {
		sqlBufPool.put(buf)
	}
	return s
}

// Silent: a Reset that drops the buffer when it grew too large, and only
// truncates it otherwise (encoding/gob's encBuffer).
type encBuf struct {
	data    []byte
	scratch [64]byte
}

var encBufPool = sync.Pool{New: func() any {
	e := new(encBuf)
	e.data = e.scratch[:0]
	return e
}}

func (e *encBuf) Write(p []byte) (int, error) {
	e.data = append(e.data, p...)
	return len(p), nil
}

func (e *encBuf) Reset() {
	if len(e.data) >= 1<<20 {
		e.data = e.scratch[:0]
	} else {
		e.data = e.data[:0]
	}
}

func encodeWithBuf(f func(*encBuf)) []byte {
	e := encBufPool.Get().(*encBuf)
	f(e)
	out := append([]byte(nil), e.data...)
	e.Reset()
	encBufPool.Put(e)
	return out
}
