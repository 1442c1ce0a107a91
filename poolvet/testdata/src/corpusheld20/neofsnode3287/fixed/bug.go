// Package bug reproduces the shape of nspcc-dev/neofs-node#3287
// (https://github.com/nspcc-dev/neofs-node/issues/3287, fixed in commit
// 8cb0c71c40805d4067726562f4e46f306cae4047): the node sends prepared replication
// requests through a gRPC codec whose Marshal wrapped the caller's []byte in a
// pooled buffer, NewBuffer(&bMsg, DefaultBufferPool()). Once the transport has
// written the message it frees the buffers, which hands the caller's backing
// array to the shared default buffer pool. The PUT service still holds the same
// encoded object and goes on to store it locally, while any other gRPC user may
// already have taken that array from the pool and overwritten it. The fix wraps
// the message in a plain, non-pooled SliceBuffer.
// Check: useafterput (storing t.enc.b locally after the codec's buffer Free put
// its backing array into the default buffer pool).
package bug

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// BufferPool pools byte slices.
type BufferPool interface {
	Get(length int) *[]byte
	Put(*[]byte)
}

const maxPooledBufferLen = 1 << 20

type simpleBufferPool struct {
	pool sync.Pool
}

func (p *simpleBufferPool) Get(length int) *[]byte {
	if bs, ok := p.pool.Get().(*[]byte); ok && cap(*bs) >= length {
		*bs = (*bs)[:length]
		return bs
	}
	b := make([]byte, length)
	return &b
}

func (p *simpleBufferPool) Put(buf *[]byte) {
	if cap(*buf) > maxPooledBufferLen {
		return
	}
	*buf = (*buf)[:0]
	p.pool.Put(buf)
}

var defaultBufferPool BufferPool = &simpleBufferPool{}

// DefaultBufferPool returns the pool shared by all gRPC users.
func DefaultBufferPool() BufferPool { return defaultBufferPool }

// Buffer is a possibly pooled piece of a message.
type Buffer interface {
	ReadOnlyData() []byte
	Free()
}

// SliceBuffer is a Buffer over a plain slice; Free does nothing.
type SliceBuffer []byte

func (s SliceBuffer) ReadOnlyData() []byte { return s }
func (s SliceBuffer) Free()                {}

type buffer struct {
	origData *[]byte
	data     []byte
	pool     BufferPool
}

// NewBuffer wraps data; Free returns *data to pool.
func NewBuffer(data *[]byte, pool BufferPool) Buffer {
	return &buffer{origData: data, data: *data, pool: pool}
}

func (b *buffer) ReadOnlyData() []byte { return b.data }

func (b *buffer) Free() {
	if b.pool != nil {
		b.pool.Put(b.origData)
	}
	b.origData, b.data, b.pool = nil, nil, nil
}

// BufferSlice is a message made of buffers.
type BufferSlice []Buffer

// Free frees every buffer.
func (s BufferSlice) Free() {
	for _, b := range s {
		b.Free()
	}
}

type protoCodecBinaryRequestOnly struct{}

// Marshal accepts and forwards []byte messages only.
func (protoCodecBinaryRequestOnly) Marshal(msg any) (BufferSlice, error) {
	bMsg, ok := msg.([]byte)
	if ok {
		// The message belongs to the caller: never hand it to a buffer pool.
		return BufferSlice{SliceBuffer(bMsg)}, nil
	}
	return nil, fmt.Errorf("message is not of type %T", bMsg)
}

// ClientConn is a minimal stand-in for grpc.ClientConn.
type ClientConn struct {
	w io.Writer
}

// Invoke marshals req with codec, writes it and frees the buffers.
func (c *ClientConn) Invoke(_ context.Context, method string, req any, codec protoCodecBinaryRequestOnly) error {
	bufs, err := codec.Marshal(req)
	if err != nil {
		return err
	}
	defer bufs.Free()
	if _, err := io.WriteString(c.w, method); err != nil {
		return err
	}
	for _, b := range bufs {
		if _, err := c.w.Write(b.ReadOnlyData()); err != nil {
			return err
		}
	}
	return nil
}

type transport struct {
	conns map[string]*ClientConn
}

// SendReplicationRequestToNode sends a prepared replication request to node.
func (x *transport) SendReplicationRequestToNode(ctx context.Context, req []byte, node string) error {
	conn, ok := x.conns[node]
	if !ok {
		return errors.New("no connection")
	}
	return conn.Invoke(ctx, "/neo.fs.v2.object.ObjectService/Replicate", req, protoCodecBinaryRequestOnly{})
}

type encodedObject struct {
	b      []byte
	hdrOff int
}

// ObjectStorage is the local storage.
type ObjectStorage interface {
	Put(obj []byte) error
}

type distributedTarget struct {
	ctx       context.Context
	transport *transport
	storage   ObjectStorage
	node      string
	enc       encodedObject
}

// Close replicates the encoded object to the remote node and stores it locally.
func (t *distributedTarget) Close() error {
	if err := t.transport.SendReplicationRequestToNode(t.ctx, t.enc.b, t.node); err != nil {
		return fmt.Errorf("replicate object to remote node %s: %w", t.node, err)
	}
	return t.storage.Put(t.enc.b[t.enc.hdrOff:])
}
