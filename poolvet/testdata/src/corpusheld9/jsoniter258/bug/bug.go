// Package bug reproduces the shape of json-iterator/go#258
// (https://github.com/json-iterator/go/issues/258): a marshal helper
// borrowed a pooled Stream, deferred returning it, and returned the slice
// from stream.Buffer(). The deferred return handed the stream (and its
// byte slice) to the next borrower, so under concurrency callers saw
// malformed JSON. The maintainer answered that Buffer() is valid only while
// the stream is held and must be copied before the stream goes back.
//
// Check: useafterput (an alias of the pooled object's buffer is returned
// past a deferred Put done through a size-guarded wrapper; the report is at
// the return, per docs/poolvet.md).
package bug

import (
	"errors"
	"strconv"
	"sync"
)

const maxStreamBuf = 64 << 10

type Stream struct {
	buf   []byte
	Error error
}

// Buffer exposes the stream's internal bytes without copying.
func (s *Stream) Buffer() []byte { return s.buf }

func (s *Stream) WriteVal(v any) {
	switch x := v.(type) {
	case string:
		s.buf = strconv.AppendQuote(s.buf, x)
	case int:
		s.buf = strconv.AppendInt(s.buf, int64(x), 10)
	case bool:
		s.buf = strconv.AppendBool(s.buf, x)
	default:
		s.Error = errors.New("unsupported value")
	}
}

var streamPool = sync.Pool{New: func() any { return &Stream{buf: make([]byte, 0, 512)} }}

func BorrowStream() *Stream {
	s := streamPool.Get().(*Stream)
	s.buf = s.buf[:0]
	s.Error = nil
	return s
}

func ReturnStream(s *Stream) {
	if cap(s.buf) > maxStreamBuf {
		return
	}
	streamPool.Put(s)
}

func Marshal(v any) ([]byte, error) {
	stream := BorrowStream()
	defer ReturnStream(stream)

	stream.WriteVal(v)
	if stream.Error != nil {
		return nil, stream.Error
	}
	return stream.Buffer(), nil // want `useafterput`
}
