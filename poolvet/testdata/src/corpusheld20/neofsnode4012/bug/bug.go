// Package bug reproduces the shape of nspcc-dev/neofs-node#4012
// (https://github.com/nspcc-dev/neofs-node/issues/4012, fixed for the EC GET
// handler in commit 5aefc84d51dd6595aa3dd81de4e0abf9026b53ea): the handler takes
// a reference-counted MemBuffer from a sync.Pool-backed MemBufferPool and passes
// a slice of it to the local storage as scratch space for the object header.
// The storage returns a stream that may serve the requested range straight out
// of that scratch slice, but the handler frees the MemBuffer (refs drop to zero,
// so it goes back to the pool) right after ReadECPartRange returns and only then
// copies the stream into the response. Another request can take the buffer
// meanwhile, corrupting the data sent. The fix frees the buffer in a defer, after
// the stream has been copied completely.
// Check: useafterput (copying from the stream, which aliases the freed
// MemBuffer, after hdrMemBuf.Free returned it to the pool).
package bug

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
)

// MemBuffer is a pooled, reference-counted buffer.
type MemBuffer struct {
	SliceBuffer []byte
	refs        atomic.Int32
	pool        *sync.Pool
}

// Free decrements the reference counter and returns the buffer to its pool
// once it reaches zero.
func (x *MemBuffer) Free() {
	switch refs := x.refs.Add(-1); {
	case refs > 0:
	case refs == 0:
		p := x.pool
		x.pool = nil
		p.Put(x)
	default:
		panic("free of freed buffer")
	}
}

// MemBufferPool is a sync.Pool of MemBuffer instances of a fixed length.
type MemBufferPool struct {
	syncPool *sync.Pool
}

// NewBufferPool returns a pool of buffers of length ln.
func NewBufferPool(ln int) *MemBufferPool {
	return &MemBufferPool{syncPool: &sync.Pool{
		New: func() any { return &MemBuffer{SliceBuffer: make([]byte, ln)} },
	}}
}

// Get takes a buffer with one reference.
func (x *MemBufferPool) Get() *MemBuffer {
	item := x.syncPool.Get().(*MemBuffer)
	item.pool = x.syncPool
	item.refs.Store(1)
	return item
}

const (
	headResponseBufferLen         = 16 << 10
	maxHeaderOffsetInHeadResponse = 64
)

var headResponseBufferPool = NewBufferPool(headResponseBufferLen)

func getBufferForHeadResponse() (*MemBuffer, []byte) {
	item := headResponseBufferPool.Get()
	return item, item.SliceBuffer[maxHeaderOffsetInHeadResponse:]
}

var errObjectAlreadyRemoved = errors.New("object already removed")

// StorageEngine is the local object storage.
type StorageEngine struct {
	objects map[string][]byte
}

// ReadECPartRange reads the stored part into buf and returns a stream over the
// requested range. When the range lies in what was already read, the stream
// serves it from buf itself.
func (e *StorageEngine) ReadECPartRange(_ context.Context, id string, off, ln uint64, buf []byte) (io.Reader, error) {
	obj, ok := e.objects[id]
	if !ok {
		return nil, errObjectAlreadyRemoved
	}
	if off+ln > uint64(len(obj)) {
		return nil, errors.New("out of range")
	}
	n := uint64(copy(buf, obj))
	if off+ln <= n {
		return bytes.NewReader(buf[off : off+ln]), nil
	}
	return bytes.NewReader(obj[off : off+ln]), nil
}

type getECTransport struct {
	responseStream io.Writer
}

func copyRangeStream(dst io.Writer, src io.Reader) (uint64, error) {
	n, err := io.Copy(dst, src)
	return uint64(n), err
}

// CopyLocalECPartRange copies a range of a locally stored EC part into the
// response stream.
func (x *getECTransport) CopyLocalECPartRange(ctx context.Context, storage *StorageEngine, id string, off, ln uint64, controlCh <-chan bool) (uint64, error) {
	hdrMemBuf, buf := getBufferForHeadResponse()
	stream, err := storage.ReadECPartRange(ctx, id, off, ln, buf)
	hdrMemBuf.Free()
	if err != nil {
		if errors.Is(err, errObjectAlreadyRemoved) {
			return 0, err
		}
		return 0, nil
	}

	if controlCh != nil {
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case abort := <-controlCh:
			if abort {
				return 0, errors.New("aborted")
			}
		}
	}

	return copyRangeStream(x.responseStream, stream) // want `useafterput`
}
