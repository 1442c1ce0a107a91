package doubleput

import "sync"

// A closed flag that Reset clears when the object is got again does not
// stop a second Close: between the two calls another user may get the
// object, clear the flag, and have it put back under them (m3db/m3's
// encoders and blocks).
type flagEncoder struct {
	buf    []byte
	closed bool
}

var flagEncoderPool = sync.Pool{New: func() any { return &flagEncoder{} }}

func getFlagEncoder() *flagEncoder {
	e := flagEncoderPool.Get().(*flagEncoder)
	e.Reset()
	return e
}

func (e *flagEncoder) Reset() {
	e.buf = e.buf[:0]
	e.closed = false
}

func (e *flagEncoder) Close() { // want Close:`pool:put\(0\)\?`
	if e.closed {
		return
	}
	e.closed = true
	if cap(e.buf) > 1<<16 {
		return
	}
	flagEncoderPool.Put(e)
}

// Finish closes the encoder and hands a copy of its bytes to the caller.
func (e *flagEncoder) Finish() []byte { // want Finish:`pool:put\(0\)\?`
	out := append([]byte(nil), e.buf...)
	e.Close()
	return out
}

func closeAll(es []*flagEncoder) {
	for _, e := range es {
		e.Close()
	}
}

func finishAll(es []*flagEncoder) [][]byte {
	var out [][]byte
	for _, e := range es {
		out = append(out, e.Finish())
	}
	return out
}

// An explicit Close under a deferred one.
func encodeUnderDefer(p []byte) []byte {
	e := getFlagEncoder()
	defer e.Close()
	e.buf = append(e.buf, p...)
	return e.Finish() // want `doubleput`
}

// Two calls in a row, through a wrapper.
func encodeTwice(p []byte) []byte {
	e := getFlagEncoder()
	e.buf = append(e.buf, p...)
	out := e.Finish()
	e.Close() // want `doubleput`
	return out
}

// Every element, twice.
func finishThenClose(es []*flagEncoder) [][]byte {
	out := finishAll(es)
	closeAll(es) // want `doubleput`
	return out
}

// One Close per object: not reported.
func encodeOnce(p []byte) []byte {
	e := getFlagEncoder()
	defer e.Close()
	e.buf = append(e.buf, p...)
	return append([]byte(nil), e.buf...)
}

// One Close per element: not reported.
func finishOnly(es []*flagEncoder) [][]byte {
	return finishAll(es)
}

// A flag nothing clears: the object is put at most once in its life, so
// a second Close does nothing (not reported).
type onceEncoder struct {
	buf    []byte
	closed bool
}

var onceEncoderPool = sync.Pool{New: func() any { return &onceEncoder{} }}

func (e *onceEncoder) Close() { // want Close:`pool:put\(0\)\?`
	if e.closed {
		return
	}
	e.closed = true
	onceEncoderPool.Put(e)
}

func encodeOnceEncoder(p []byte) int {
	e := onceEncoderPool.Get().(*onceEncoder)
	defer e.Close()
	e.buf = append(e.buf[:0], p...)
	n := len(e.buf)
	e.Close()
	return n
}
