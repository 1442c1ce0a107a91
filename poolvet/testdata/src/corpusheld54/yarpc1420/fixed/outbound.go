// Source: https://github.com/yarpc/yarpc-go/pull/1420, commit
// 2eaab321ad4ed059ac03bf16d59fea5a2d31d6e7 ("Remove buffer pooling for grpc
// outbounds"; CHANGELOG: "Removed buffer pooling from GRPC outbound requests
// which had possible data corruption issues").
//
// Bug: Outbound.invoke read the request body into a *bufferpool.Buffer taken
// with bufferpool.Get() and released with defer bufferpool.Put(...), then
// passed requestBuffer.Bytes() to grpc's ClientConn.Invoke. The gRPC client
// keeps holding on to the request bytes after Invoke returns (its transport
// writes queued frames from a separate writer goroutine), so once the
// deferred Put released the buffer and another request reused it, the bytes
// still referenced by gRPC were overwritten: data corruption, detected by the
// bufferpool use-after-free checker added in #1408.
//
// Fix: stop pooling here; the body is read with ioutil.ReadAll into a fresh
// slice that is handed to Invoke.
//
// Check: useafterput (requestBuffer.Bytes() is handed to ClientConn.Invoke,
// which retains it past the deferred bufferpool.Put)
package fixed

import (
	"context"
	"io"
	"io/ioutil"
)

// Request is the low level request representation (transport.Request).
type Request struct {
	Service   string
	Procedure string
	Body      io.Reader
}

type CallOption interface{}

// ClientConn mirrors the part of *grpc.ClientConn that is used here.
type ClientConn interface {
	Invoke(ctx context.Context, method string, args, reply interface{}, opts ...CallOption) error
}

// transportConn stands in for grpc's http2 client transport: Invoke queues
// the request message and the frames are written by a separate writer
// goroutine, so the message bytes stay referenced after Invoke returns.
type transportConn struct {
	controlBuf chan []byte
}

func (c *transportConn) Invoke(ctx context.Context, method string, args, reply interface{}, opts ...CallOption) error {
	msg, _ := args.([]byte)
	select {
	case c.controlBuf <- msg:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

type grpcPeer struct {
	clientConn ClientConn
}

type Outbound struct {
	peer *grpcPeer
}

func procedureNameToFullMethod(procedure string) (string, error) {
	return "/" + procedure, nil
}

func (o *Outbound) invoke(
	ctx context.Context,
	request *Request,
	responseBody *[]byte,
) (retErr error) {
	bytes, err := ioutil.ReadAll(request.Body)
	if err != nil {
		return err
	}
	fullMethod, err := procedureNameToFullMethod(request.Procedure)
	if err != nil {
		return err
	}
	var callOptions []CallOption

	return o.peer.clientConn.Invoke(
		ctx,
		fullMethod,
		bytes,
		responseBody,
		callOptions...,
	)
}
