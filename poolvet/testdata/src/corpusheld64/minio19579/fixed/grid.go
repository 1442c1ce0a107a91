// Source: https://github.com/minio/minio/pull/19579
// (commit b5a09ff96bf2dbd9f575f0571b2f0eba686dee7b, "Fix RenameData data race")
//
// Bug: putObject encodes small objects inline into buffers taken from the
// grid byte-buffer pool (grid.GetByteBufferCap) and defers
// grid.PutByteBuffer(buf). The inline shard (inlineBuffers[i].Bytes(), which
// aliases buf) is stored in partsMetadata[i].Data and handed to
// renameData -> xlStorageDiskIDCheck.RenameData, which runs the storage call
// inside xioutil.WithDeadline, i.e. in a goroutine. When the deadline fires,
// RenameData returns while that goroutine is still reading fi.Data;
// putObject then returns and its deferred PutByteBuffer recycles buf, which
// the next user overwrites while the timed-out RenameData is still using it.
//
// Fix: RenameData copies the inline data into a fresh pooled buffer before
// calling WithDeadline and returns that copy to the pool (deferred) inside
// the work function, so the goroutine owns the memory it uses.
//
// Check: useafterput (at the xioutil.WithDeadline call in RenameData: it hands
// fi.Data, memory of putObject's pooled buffer that putObject puts back with
// a deferred PutByteBuffer, to a goroutine that can outlive the call)
package fixed

import (
	"context"
	"sync"
	"time"
)

const (
	biggerBufMin = 32 << 10
	biggerBufMax = 64 << 10
)

var internal32KByteBuffer = sync.Pool{
	New: func() any {
		m := make([]byte, 0, biggerBufMin)
		return &m
	},
}

var internal64KByteBuffer = sync.Pool{
	New: func() any {
		m := make([]byte, 0, biggerBufMax)
		return &m
	},
}

// GetByteBufferCap returns a length 0 byte buffer with at least the given capacity.
func GetByteBufferCap(wantSz int) []byte {
	if wantSz <= biggerBufMin {
		b := *internal32KByteBuffer.Get().(*[]byte)
		return b[:0]
	} else if wantSz <= biggerBufMax {
		b := *internal64KByteBuffer.Get().(*[]byte)
		return b[:0]
	}
	return make([]byte, 0, wantSz)
}

// PutByteBuffer is for returning byte buffers.
func PutByteBuffer(b []byte) {
	if cap(b) >= biggerBufMin && cap(b) < biggerBufMax {
		internal32KByteBuffer.Put(&b)
	} else if cap(b) >= biggerBufMax && cap(b) <= biggerBufMax*2 {
		internal64KByteBuffer.Put(&b)
	}
}

type ioret[V any] struct {
	val V
	err error
}

// WithDeadline will execute a function with a deadline and return a value of a given type.
// If the deadline/context passes before the function finishes executing,
// the zero value and the context error is returned.
func WithDeadline[V any](ctx context.Context, timeout time.Duration, work func(ctx context.Context) (result V, err error)) (result V, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	c := make(chan ioret[V], 1)
	go func() {
		v, err := work(ctx)
		c <- ioret[V]{val: v, err: err}
	}()

	select {
	case v := <-c:
		return v.val, v.err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}
