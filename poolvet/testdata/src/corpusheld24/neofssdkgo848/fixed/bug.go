// Package bug is the fixed twin of nspcc-dev/neofs-sdk-go#848 (https://github.com/nspcc-dev/neofs-sdk-go/pull/848,
// commit cd043c0 "client: Fix potential buffer race in ObjectGetInit()"): ObjectGetInit encodes
// the GET request into a *[]byte taken from the client's sync.Pool and returns it with a deferred
// Put. The request slices are handed to the stream's SendMsg, which only queues them for the
// transport's writer goroutine. With the payload-only option the method returns the reader
// (holding the stream) without waiting for any response, so the deferred Put can recycle the
// buffer before the queued request was written, and another call overwrites it on the wire.
// The fix wraps the pooled item in a reference-counted buffer that the transport frees (and
// puts back) only after writing it.
// Check: useafterput (none expected here).
package bug

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"sync"
	"sync/atomic"
)

// ---- transport (stands in for the gRPC client stream) ----

// Buffer is a chunk of a request; Free is called by the transport once it is written.
type Buffer interface {
	ReadOnlyData() []byte
	Free()
}

type SliceBuffer []byte

func (s SliceBuffer) ReadOnlyData() []byte { return s }
func (s SliceBuffer) Free()                {}

// MemBuffer wraps a sync.Pool item and puts it back when the last reference is freed.
type MemBuffer struct {
	SliceBuffer
	item *[]byte
	pool *sync.Pool
	refs atomic.Int32
}

func NewMemBuffer(item *[]byte, pool *sync.Pool) *MemBuffer {
	res := &MemBuffer{item: item, pool: pool}
	res.refs.Store(1)
	return res
}

func (x *MemBuffer) Free() {
	switch refs := x.refs.Add(-1); {
	case refs > 0:
	case refs == 0:
		x.SliceBuffer = nil
		x.pool.Put(x.item)
	default:
		panic("free of freed buffer")
	}
}

type frame struct {
	bufs []Buffer
}

type ClientStream struct {
	sendq  chan frame
	recvq  chan []byte
	closed chan struct{}
}

// newClientStream starts the writer goroutine that serializes queued frames.
func newClientStream(w io.Writer) *ClientStream {
	s := &ClientStream{sendq: make(chan frame, 8), recvq: make(chan []byte, 8), closed: make(chan struct{})}
	go func() {
		for f := range s.sendq {
			failed := false
			for _, b := range f.bufs {
				if !failed {
					if _, err := w.Write(b.ReadOnlyData()); err != nil {
						failed = true
					}
				}
				b.Free()
			}
		}
		close(s.closed)
	}()
	return s
}

// SendMsg queues the request; it returns before the bytes are written.
func (s *ClientStream) SendMsg(bufs []Buffer) error {
	s.sendq <- frame{bufs: bufs}
	return nil
}

func (s *ClientStream) CloseSend() error {
	close(s.sendq)
	return nil
}

func (s *ClientStream) RecvMsg() ([]byte, error) {
	m, ok := <-s.recvq
	if !ok {
		return nil, io.EOF
	}
	return m, nil
}

func callServerStream(ctx context.Context, w io.Writer, request []Buffer) (*ClientStream, error) {
	if err := ctx.Err(); err != nil {
		for _, b := range request {
			b.Free()
		}
		return nil, err
	}
	stream := newClientStream(w)
	if err := stream.SendMsg(request); err != nil {
		return nil, err
	}
	if err := stream.CloseSend(); err != nil {
		return nil, err
	}
	return stream, nil
}

// ---- client ----

type Signer interface {
	Sign(data []byte) ([]byte, error)
}

type Client struct {
	conn    io.Writer
	buffers *sync.Pool
}

func NewClient(conn io.Writer) *Client {
	return &Client{conn: conn, buffers: &sync.Pool{New: func() any {
		b := make([]byte, 4096)
		return &b
	}}}
}

type PrmObjectGet struct {
	payloadOnly bool
	raw         bool
}

func (p *PrmObjectGet) MarkPayloadOnly() { p.payloadOnly = true }

type Header struct {
	PayloadLen uint64
}

type PayloadReader struct {
	requestedOID    [32]byte
	payloadOnly     bool
	cancelCtxStream context.CancelFunc
	stream          *ClientStream
	tail            []byte
}

func (r *PayloadReader) readHeader(hdr *Header) bool {
	m, err := r.stream.RecvMsg()
	if err != nil || len(m) < 8 {
		return false
	}
	hdr.PayloadLen = binary.BigEndian.Uint64(m)
	r.tail = m[8:]
	return true
}

func (r *PayloadReader) Read(p []byte) (int, error) {
	if len(r.tail) == 0 {
		m, err := r.stream.RecvMsg()
		if err != nil {
			return 0, err
		}
		r.tail = m
	}
	n := copy(p, r.tail)
	r.tail = r.tail[n:]
	return n, nil
}

func (r *PayloadReader) Close() error {
	r.cancelCtxStream()
	return nil
}

func writeGetRequestBody(buf []byte, containerID, objectID [32]byte, raw, payloadOnly bool) int {
	off := copy(buf, containerID[:])
	off += copy(buf[off:], objectID[:])
	var flags byte
	if raw {
		flags |= 1
	}
	if payloadOnly {
		flags |= 2
	}
	buf[off] = flags
	return off + 1
}

// appendVerificationHeader returns the request as buffers over buf plus the signature.
// When reqMemBuf is set, buf is owned by it and travels with the request.
func appendVerificationHeader(signer Signer, reqMemBuf *MemBuffer, buf []byte, bodyLen int) ([]Buffer, error) {
	sig, err := signer.Sign(buf[:bodyLen])
	if err != nil {
		return nil, err
	}
	if reqMemBuf != nil {
		reqMemBuf.SliceBuffer = SliceBuffer(buf[:bodyLen])
		return []Buffer{reqMemBuf, SliceBuffer(sig)}, nil
	}
	return []Buffer{SliceBuffer(buf[:bodyLen]), SliceBuffer(sig)}, nil
}

const bodyLen = 32 + 32 + 1

func (c *Client) ObjectGetInit(ctx context.Context, containerID, objectID [32]byte, signer Signer, prm PrmObjectGet) (Header, *PayloadReader, error) {
	var hdr Header
	if signer == nil {
		return hdr, nil, errors.New("missing signer")
	}

	// acquire buffer for body + meta header
	bufItem := c.buffers.Get().(*[]byte)
	var reqMemBuf *MemBuffer
	var buf []byte
	if len(*bufItem) >= bodyLen {
		reqMemBuf = NewMemBuffer(bufItem, c.buffers)
		buf = *bufItem
	} else {
		c.buffers.Put(bufItem)
		buf = make([]byte, bodyLen)
	}

	// encode body
	off := writeGetRequestBody(buf, containerID, objectID, prm.raw, prm.payloadOnly)

	// append verification header
	reqBuffers, err := appendVerificationHeader(signer, reqMemBuf, buf, off)
	if err != nil {
		if reqMemBuf != nil {
			reqMemBuf.Free()
		}
		return hdr, nil, err
	}

	ctx, cancel := context.WithCancel(ctx)

	stream, err := callServerStream(ctx, c.conn, reqBuffers)
	if err != nil {
		cancel()
		return hdr, nil, err
	}

	var r PayloadReader
	r.requestedOID = objectID
	r.payloadOnly = prm.payloadOnly
	r.cancelCtxStream = cancel
	r.stream = stream

	if !prm.payloadOnly {
		if !r.readHeader(&hdr) {
			return hdr, nil, errors.Join(errors.New("read header"), r.Close())
		}
	}

	return hdr, &r, nil
}
