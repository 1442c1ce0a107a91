package useafterput

import "sync"

// A child logger keeps a sub-slice of an encoder's buffer in the struct it
// returns, and the encoder goes into the pool first: the next
// user of the encoder rewrites the child's context (francoispqt/onelog
// 499bd7d).
type rhEncoder struct{ buf []byte }

var rhEncoders = sync.Pool{New: func() any { return new(rhEncoder) }}

func (e *rhEncoder) Buf() []byte { return e.buf } // want Buf:`pool:alias`

func (e *rhEncoder) Release() { // want Release:`pool:put\(0\)`
	e.buf = e.buf[:0]
	rhEncoders.Put(e)
}

type rhLogger struct {
	level int
	ctx   []byte
}

func (l *rhLogger) copy() *rhLogger { return &rhLogger{level: l.level} }

func (l *rhLogger) With(fields func(*rhEncoder)) *rhLogger {
	nl := l.copy()
	enc := &rhEncoder{buf: []byte{' '}}
	fields(enc)
	nl.ctx = enc.Buf()[1:]
	enc.Release() // want `enc is put back into the pool while field ctx of the value returned \(stored there at line 31\)`
	return nl
}

// The fix copies the bytes out first: silent.
func (l *rhLogger) WithCopy(fields func(*rhEncoder)) *rhLogger {
	nl := l.copy()
	enc := &rhEncoder{buf: []byte{' '}}
	fields(enc)
	nl.ctx = append([]byte(nil), enc.Buf()[1:]...)
	enc.Release()
	return nl
}
