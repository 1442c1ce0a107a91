// Source: https://github.com/yarpc/yarpc-go/pull/861, commit
// 56957e1abd3b731c7b63e5ac2ede7b321893edf5 ("thrift: Disable buffer pooling";
// CHANGELOG v1.7.1: "Thrift: Fixed a bug where deserialization of large lists
// would return corrupted data at high throughputs").
//
// Bug: thriftClient.Call read the response body into a *bytes.Buffer from the
// internal/buffer sync.Pool (buffer.Get / defer buffer.Put(buf)), decoded the
// envelope from bytes.NewReader(buf.Bytes()) and returned envelope.Value.
// ThriftRW's lists, sets and maps inside a wire.Value are lazy: they keep the
// reader and an offset and only decode their items when the generated
// FromWire walks them, after Call has returned. By then the deferred Put had
// returned the buffer to the pool and another call could overwrite it, so the
// lazily decoded items were corrupted.
//
// Fix: stop pooling: the body is read into
// bytes.NewBuffer(make([]byte, 0, _defaultBufferSize)) owned by the value.
//
// Check: useafterput (return envelope.Value lets a wire.Value that still reads
// from buf's memory outlive the function past the deferred buffer.Put)
package fixed

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

// ---- internal/buffer ----

var _pool = sync.Pool{
	New: func() interface{} {
		return &bytes.Buffer{}
	},
}

// bufferGet returns a new Byte Buffer from the buffer pool
// that has been reset
func bufferGet() *bytes.Buffer {
	buf := _pool.Get().(*bytes.Buffer)
	buf.Reset()
	return buf
}

// bufferPut returns byte buffer to the buffer pool
func bufferPut(buf *bytes.Buffer) {
	_pool.Put(buf)
}

// ---- thriftrw wire / protocol (trimmed) ----

type EnvelopeType int8

const (
	Reply     EnvelopeType = 2
	Exception EnvelopeType = 3
)

// lazyValueList decodes its items from reader on demand.
type lazyValueList struct {
	reader      io.ReaderAt
	startOffset int64
	size        int32
}

// ForEach decodes the items from the list starting at the position it
// previously recorded.
func (l lazyValueList) ForEach(f func(int32) error) error {
	off := l.startOffset
	var b [4]byte
	for i := int32(0); i < l.size; i++ {
		if _, err := l.reader.ReadAt(b[:], off); err != nil {
			return err
		}
		off += 4
		if err := f(int32(binary.BigEndian.Uint32(b[:]))); err != nil {
			return err
		}
	}
	return nil
}

type Value struct {
	tlist lazyValueList
}

func (v Value) GetList() lazyValueList { return v.tlist }

type Envelope struct {
	Name  string
	Type  EnvelopeType
	Value Value
}

func DecodeEnveloped(r io.ReaderAt) (Envelope, error) {
	var hdr [5]byte
	if _, err := r.ReadAt(hdr[:], 0); err != nil {
		return Envelope{}, err
	}
	return Envelope{
		Type: EnvelopeType(hdr[0]),
		Value: Value{tlist: lazyValueList{
			reader:      r,
			startOffset: int64(len(hdr)),
			size:        int32(binary.BigEndian.Uint32(hdr[1:])),
		}},
	}, nil
}

// ---- encoding/thrift ----

const _defaultBufferSize = 1024 // 1k

type Response struct {
	Body io.ReadCloser
}

type UnaryOutbound interface {
	Call(ctx context.Context, req []byte) (*Response, error)
}

type thriftClient struct {
	out UnaryOutbound
}

var errUnexpectedEnvelopeType = errors.New("unexpected envelope type")

func (c thriftClient) Call(ctx context.Context, reqBody []byte) (Value, error) {
	tres, err := c.out.Call(ctx, reqBody)
	if err != nil {
		return Value{}, err
	}
	defer tres.Body.Close()

	buf := bytes.NewBuffer(make([]byte, 0, _defaultBufferSize))
	if _, err = buf.ReadFrom(tres.Body); err != nil {
		return Value{}, err
	}

	envelope, err := DecodeEnveloped(bytes.NewReader(buf.Bytes()))
	if err != nil {
		return Value{}, err
	}

	switch envelope.Type {
	case Reply:
		return envelope.Value, nil
	case Exception:
		return Value{}, errors.New("thrift exception")
	default:
		return Value{}, errUnexpectedEnvelopeType
	}
}
