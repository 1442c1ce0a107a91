// Source: https://github.com/nspcc-dev/neofs-sdk-go/pull/713
// (commit 1f3abc2c67ca064afcf37ca149d9f9906a54280c, "client: fix incorrect
// gRPC buffer pool use"; picked up by nspcc-dev/neofs-node as "Fix buffer pool").
//
// Bug: the client's binary-only gRPC codec wrapped the caller's already
// encoded request ([]byte) with mem.NewBuffer(&bMsg, mem.DefaultBufferPool()).
// When the transport frees the marshalled BufferSlice after sending, the
// buffer's Free puts the slice into the process-wide default pool, from where
// any other gRPC user can Get it and overwrite it. The slice however is still
// owned by the client: DemuxReplicatedObject caches the encoded message in
// demuxReplicationMessage.msg and sends the same bytes to several nodes, so
// the next ReplicateObject call sends memory that the pool has handed out to
// someone else ("unexpected memory corruptions are quite possible").
//
// Fix: wrap the message with mem.SliceBuffer(bMsg), whose Free is a no-op, so
// the caller's memory never enters the pool.
//
// The mem package of grpc-go is re-created below in trimmed form.
//
// Check: useafterput (the caller-owned, cached message is handed to a buffer
// whose Free puts it into the shared pool while the cache keeps using it; the
// report is expected at the NewBuffer call in Marshal that gives it to the pool)
package fixed

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// ---- trimmed google.golang.org/grpc/mem ----

// BufferPool is a pool of buffers that can be shared and reused.
type BufferPool interface {
	Get(length int) *[]byte
	Put(*[]byte)
}

type simpleBufferPool struct {
	pool sync.Pool
}

func (p *simpleBufferPool) Get(size int) *[]byte {
	bs, ok := p.pool.Get().(*[]byte)
	if ok && cap(*bs) >= size {
		*bs = (*bs)[:size]
		return bs
	}
	if ok {
		p.pool.Put(bs)
	}
	b := make([]byte, size)
	return &b
}

func (p *simpleBufferPool) Put(buf *[]byte) {
	p.pool.Put(buf)
}

var defaultBufferPool BufferPool = &simpleBufferPool{}

// DefaultBufferPool returns the current default buffer pool.
func DefaultBufferPool() BufferPool { return defaultBufferPool }

// Buffer is a reference counted, possibly pooled, byte slice.
type Buffer interface {
	ReadOnlyData() []byte
	Ref()
	Free()
	Len() int
}

const bufferPoolingThreshold = 1 << 10

type buffer struct {
	origData *[]byte
	data     []byte
	refs     *atomic.Int32
	pool     BufferPool
}

// NewBuffer creates a Buffer from the given data; when the Buffer's
// reference count reaches zero, data is returned to pool.
func NewBuffer(data *[]byte, pool BufferPool) Buffer {
	if pool == nil || len(*data) < bufferPoolingThreshold {
		return SliceBuffer(*data)
	}
	b := &buffer{origData: data, data: *data, refs: new(atomic.Int32), pool: pool}
	b.refs.Add(1)
	return b
}

func (b *buffer) ReadOnlyData() []byte { return b.data }
func (b *buffer) Ref()                 { b.refs.Add(1) }
func (b *buffer) Len() int             { return len(b.data) }

func (b *buffer) Free() {
	if refs := b.refs.Add(-1); refs == 0 {
		b.pool.Put(b.origData)
		b.origData, b.data, b.refs, b.pool = nil, nil, nil, nil
	} else if refs < 0 {
		panic("Cannot free freed buffer")
	}
}

// SliceBuffer is a Buffer that is not pooled: Free does nothing.
type SliceBuffer []byte

func (s SliceBuffer) ReadOnlyData() []byte { return s }
func (s SliceBuffer) Ref()                 {}
func (s SliceBuffer) Free()                {}
func (s SliceBuffer) Len() int             { return len(s) }

// BufferSlice is a list of Buffers.
type BufferSlice []Buffer

// Free frees all the buffers of the slice.
func (s BufferSlice) Free() {
	for _, b := range s {
		b.Free()
	}
}

// ---- trimmed transport: marshal, write, free ----

type codecV2 interface {
	Marshal(msg any) (BufferSlice, error)
}

type clientConn struct {
	w io.Writer
}

func (cc *clientConn) Invoke(method string, req any, codec codecV2) error {
	data, err := codec.Marshal(req)
	if err != nil {
		return err
	}
	defer data.Free()
	for _, b := range data {
		if _, err := cc.w.Write(b.ReadOnlyData()); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
	}
	return nil
}

// ---- client (client/common.go, client/object_replicate.go) ----

type onlyBinarySendingCodec struct{}

func (x onlyBinarySendingCodec) Marshal(msg any) (BufferSlice, error) {
	bMsg, ok := msg.([]byte)
	if ok {
		return BufferSlice{SliceBuffer(bMsg)}, nil
	}

	return nil, fmt.Errorf("message is not of type %T", bMsg)
}

type Client struct {
	conn *clientConn
}

func (c *Client) ReplicateObject(src io.ReadSeeker) error {
	msg, err := prepareReplicateMessage(src)
	if err != nil {
		return err
	}

	err = c.conn.Invoke("/neo.fs.v2.object.ObjectService/Replicate", msg, onlyBinarySendingCodec{})
	if err != nil {
		return fmt.Errorf("send request over gRPC: %w", err)
	}
	return nil
}

// DemuxReplicatedObject allows to share same argument between multiple
// ReplicateObject calls for deduplication of network messages.
func DemuxReplicatedObject(src io.ReadSeeker) io.ReadSeeker {
	return &demuxReplicationMessage{rs: src}
}

type demuxReplicationMessage struct {
	rs io.ReadSeeker

	mtx sync.Mutex
	msg []byte
	err error
}

func (x *demuxReplicationMessage) Read(p []byte) (n int, err error) {
	return x.rs.Read(p)
}

func (x *demuxReplicationMessage) Seek(offset int64, whence int) (int64, error) {
	return x.rs.Seek(offset, whence)
}

func prepareReplicateMessage(src io.ReadSeeker) ([]byte, error) {
	srm, ok := src.(*demuxReplicationMessage)
	if !ok {
		return newReplicateMessage(src)
	}

	srm.mtx.Lock()
	defer srm.mtx.Unlock()

	if srm.msg == nil && srm.err == nil {
		srm.msg, srm.err = newReplicateMessage(src)
	}

	return srm.msg, srm.err
}

func newReplicateMessage(src io.ReadSeeker) ([]byte, error) {
	n, err := src.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, fmt.Errorf("seek to end: %w", err)
	} else if n < 0 {
		return nil, errors.New("seek to end returned negative value")
	}
	if _, err = src.Seek(-n, io.SeekCurrent); err != nil {
		return nil, fmt.Errorf("seek back to initial pos: %w", err)
	}

	msg := make([]byte, n)
	if _, err = io.ReadFull(src, msg); err != nil {
		return nil, fmt.Errorf("read object: %w", err)
	}
	return msg, nil
}
