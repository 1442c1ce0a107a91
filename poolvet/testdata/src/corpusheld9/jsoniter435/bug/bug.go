// Package bug reproduces the shape of json-iterator/go#435
// (https://github.com/json-iterator/go/issues/435): Marshal borrows a
// *Stream from the config's sync.Pool, encodes into stream.buf (which only
// grows by append) and returns the stream with ReturnStream. Reset only
// truncates buf to [:0], so after an occasional 20-60 MB document the pooled
// streams keep their huge buffers and memory piles up. The obvious fix drops
// streams whose buffer grew past a bound instead of pooling them.
//
// Check: unbounded (a pooled struct whose []byte field its methods append to
// by a variable amount is put back with no size check, inside ReturnStream).
package bug

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
	cfg.streamPool.Put(stream) // want `unbounded`
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
