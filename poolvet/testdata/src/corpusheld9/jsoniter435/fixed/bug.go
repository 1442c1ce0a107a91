// Package fixed is json-iterator/go#435 with the obvious fix: ReturnStream
// drops streams whose buffer grew past maxPooledStreamBuf instead of keeping
// them in the pool.
package fixed

import (
	"io"
	"strconv"
	"sync"
)

// Stream encodes values into buf and optionally flushes them to out.
type Stream struct {
	cfg   *frozenConfig
	out   io.Writer
	buf   []byte
	Error error
}

// Reset prepares the stream to write to out.
func (stream *Stream) Reset(out io.Writer) {
	stream.out = out
	stream.buf = stream.buf[:0]
}

// Buffer returns the bytes encoded so far.
func (stream *Stream) Buffer() []byte {
	return stream.buf
}

func (stream *Stream) writeByte(c byte) {
	stream.buf = append(stream.buf, c)
}

// WriteRaw appends s as it is.
func (stream *Stream) WriteRaw(s string) {
	stream.buf = append(stream.buf, s...)
}

// WriteString appends s as a quoted JSON string.
func (stream *Stream) WriteString(s string) {
	stream.buf = strconv.AppendQuote(stream.buf, s)
}

// WriteVal encodes strings, string slices and maps of strings.
func (stream *Stream) WriteVal(v any) {
	switch v := v.(type) {
	case string:
		stream.WriteString(v)
	case []string:
		stream.writeByte('[')
		for i, s := range v {
			if i > 0 {
				stream.writeByte(',')
			}
			stream.WriteString(s)
		}
		stream.writeByte(']')
	case map[string]string:
		stream.writeByte('{')
		first := true
		for k, s := range v {
			if !first {
				stream.writeByte(',')
			}
			first = false
			stream.WriteString(k)
			stream.writeByte(':')
			stream.WriteString(s)
		}
		stream.writeByte('}')
	default:
		stream.WriteRaw("null")
	}
}

// maxPooledStreamBuf bounds the buffer of a stream kept in the pool.
const maxPooledStreamBuf = 64 << 10

type frozenConfig struct {
	streamPool *sync.Pool
}

func newConfig() *frozenConfig {
	cfg := &frozenConfig{}
	cfg.streamPool = &sync.Pool{
		New: func() any {
			return &Stream{cfg: cfg, buf: make([]byte, 0, 512)}
		},
	}
	return cfg
}

// ConfigDefault is the default configuration.
var ConfigDefault = newConfig()

// BorrowStream takes a stream from the pool.
func (cfg *frozenConfig) BorrowStream(writer io.Writer) *Stream {
	stream := cfg.streamPool.Get().(*Stream)
	stream.Reset(writer)
	return stream
}

// ReturnStream gives a stream back to the pool.
func (cfg *frozenConfig) ReturnStream(stream *Stream) {
	stream.out = nil
	stream.Error = nil
	if cap(stream.buf) > maxPooledStreamBuf {
		return
	}
	cfg.streamPool.Put(stream)
}

// Marshal encodes v and returns a copy of the encoded bytes.
func (cfg *frozenConfig) Marshal(v any) ([]byte, error) {
	stream := cfg.BorrowStream(nil)
	defer cfg.ReturnStream(stream)
	stream.WriteVal(v)
	if stream.Error != nil {
		return nil, stream.Error
	}
	result := stream.Buffer()
	copied := make([]byte, len(result))
	copy(copied, result)
	return copied, nil
}
