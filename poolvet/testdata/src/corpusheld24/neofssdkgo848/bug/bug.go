// Package bug reproduces the shape of nspcc-dev/neofs-sdk-go#848 (https://github.com/nspcc-dev/neofs-sdk-go/pull/848,
// commit cd043c0 "client: Fix potential buffer race in ObjectGetInit()"): ObjectGetInit encodes
// the GET request into a *[]byte taken from the client's sync.Pool and returns it with a deferred
// Put. The request slices are handed to the stream's SendMsg, which only queues them for the
// transport's writer goroutine. With the payload-only option the method returns the reader
// (holding the stream) without waiting for any response, so the deferred Put can recycle the
// buffer before the queued request was written, and another call overwrites it on the wire.
// The fix wraps the pooled item in a reference-counted buffer that the transport frees (and
// puts back) only after writing it.
// Check: useafterput (the reader returned from ObjectGetInit keeps the stream that still holds
// the request buffer, which the deferred Put recycles as the function returns).
package bug

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

// ---- transport (stands in for the gRPC client stream) ----

type frame struct {
	bufs [][]byte
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
			for _, b := range f.bufs {
				if _, err := w.Write(b); err != nil {
					break
				}
			}
		}
		close(s.closed)
	}()
	return s
}

// SendMsg queues the request; it returns before the bytes are written.
func (s *ClientStream) SendMsg(bufs [][]byte) error {
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

func callServerStream(ctx context.Context, w io.Writer, request [][]byte) (*ClientStream, error) {
	if err := ctx.Err(); err != nil {
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

// appendVerificationHeader returns the request as slices of buf plus the signature.
func appendVerificationHeader(signer Signer, buf []byte, bodyLen int) ([][]byte, error) {
	sig, err := signer.Sign(buf[:bodyLen])
	if err != nil {
		return nil, err
	}
	return [][]byte{buf[:bodyLen], sig}, nil
}

const bodyLen = 32 + 32 + 1

func (c *Client) ObjectGetInit(ctx context.Context, containerID, objectID [32]byte, signer Signer, prm PrmObjectGet) (Header, *PayloadReader, error) {
	var hdr Header
	if signer == nil {
		return hdr, nil, errors.New("missing signer")
	}

	// acquire buffer for body + meta header
	bufItem := c.buffers.Get().(*[]byte)
	var buf []byte
	if len(*bufItem) >= bodyLen {
		defer func() { c.buffers.Put(bufItem) }()
		buf = *bufItem
	} else {
		c.buffers.Put(bufItem)
		buf = make([]byte, bodyLen)
	}

	// encode body
	off := writeGetRequestBody(buf, containerID, objectID, prm.raw, prm.payloadOnly)

	// append verification header
	reqBuffers, err := appendVerificationHeader(signer, buf, off)
	if err != nil {
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

	return hdr, &r, nil // want `useafterput`
}
