// Source: https://github.com/restic/restic/pull/3813
// (commit ce8901890298bc1ddd482b789193ff1ec8eaa30a, "Fix data race in
// blob_saver").
//
// Bug: archiver.BlobSaver.Save takes ownership of a *Buffer that came from
// the FileSaver's BufferPool and sends it to a worker goroutine through
// s.ch. The worker saves the blob and then calls job.buf.Release(), which
// puts the buffer back into the pool. After the send, Save still read
// len(buf.Data) to fill FutureBlob.length. By then the buffer may already
// have been released and handed out again by BufferPool.Get to another
// FileSaver, which overwrites buf.Data: the race detector reported it and
// the backup statistics (DataSize) were wrong.
//
// Fix: compute length := len(buf.Data) before the job is submitted and use
// that value afterwards.
//
// Check: useafterput (buf is handed to the worker, which releases it to the
// pool, and is then read again in the return statement of Save)
package bug

import (
	"context"
	"sync"
)

// Buffer is a reusable buffer. After the buffer has been used, Release should
// be called so the underlying slice is put back into the pool.
type Buffer struct {
	Data []byte
	pool *BufferPool
}

// Release puts the buffer back into the pool it came from.
func (b *Buffer) Release() {
	pool := b.pool
	if pool == nil || cap(b.Data) > pool.defaultSize {
		return
	}

	select {
	case pool.ch <- b:
	default:
	}
}

// BufferPool implements a limited set of reusable buffers.
type BufferPool struct {
	ch          chan *Buffer
	defaultSize int
}

// NewBufferPool initializes a new buffer pool. The pool stores at most max
// items. New buffers are created with defaultSize. Buffers that have grown
// larger are not put back.
func NewBufferPool(max int, defaultSize int) *BufferPool {
	b := &BufferPool{
		ch:          make(chan *Buffer, max),
		defaultSize: defaultSize,
	}
	return b
}

// Get returns a new buffer, either from the pool or newly allocated.
func (pool *BufferPool) Get() *Buffer {
	select {
	case buf := <-pool.ch:
		return buf
	default:
	}

	b := &Buffer{
		Data: make([]byte, pool.defaultSize),
		pool: pool,
	}

	return b
}

type BlobType uint8

const DataBlob BlobType = 1

type ID [32]byte

// Saver allows saving a blob.
type Saver interface {
	SaveBlob(ctx context.Context, t BlobType, data []byte, id ID, storeDuplicate bool) (ID, bool, int, error)
}

// group stands in for golang.org/x/sync/errgroup.Group.
type group struct {
	wg  sync.WaitGroup
	mu  sync.Mutex
	err error
}

func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.mu.Lock()
			if g.err == nil {
				g.err = err
			}
			g.mu.Unlock()
		}
	}()
}

// BlobSaver concurrently saves incoming blobs to the repo.
type BlobSaver struct {
	repo Saver
	ch   chan<- saveBlobJob
}

// NewBlobSaver returns a new blob. A worker pool is started, it is stopped
// when ctx is cancelled.
func NewBlobSaver(ctx context.Context, wg *group, repo Saver, workers uint) *BlobSaver {
	ch := make(chan saveBlobJob)
	s := &BlobSaver{
		repo: repo,
		ch:   ch,
	}

	for i := uint(0); i < workers; i++ {
		wg.Go(func() error {
			return s.worker(ctx, ch)
		})
	}

	return s
}

// Save stores a blob in the repo. It checks the index and the known blobs
// before saving anything. It takes ownership of the buffer passed in.
func (s *BlobSaver) Save(ctx context.Context, t BlobType, buf *Buffer) FutureBlob {
	ch := make(chan saveBlobResponse, 1)
	select {
	case s.ch <- saveBlobJob{BlobType: t, buf: buf, ch: ch}:
	case <-ctx.Done():
		close(ch)
		return FutureBlob{ch: ch}
	}

	return FutureBlob{ch: ch, length: len(buf.Data)} // want `useafterput`
}

// FutureBlob is returned by SaveBlob and will return the data once it has been processed.
type FutureBlob struct {
	ch     <-chan saveBlobResponse
	length int
	res    saveBlobResponse
}

// Wait blocks until the result is available or the context is cancelled.
func (s *FutureBlob) Wait(ctx context.Context) {
	select {
	case <-ctx.Done():
		return
	case res, ok := <-s.ch:
		if ok {
			s.res = res
		}
	}
}

// Length returns the raw length of the blob.
func (s *FutureBlob) Length() int {
	return s.length
}

type saveBlobJob struct {
	BlobType
	buf *Buffer
	ch  chan<- saveBlobResponse
}

type saveBlobResponse struct {
	id    ID
	known bool
	size  int
}

func (s *BlobSaver) saveBlob(ctx context.Context, t BlobType, buf []byte) (saveBlobResponse, error) {
	id, known, size, err := s.repo.SaveBlob(ctx, t, buf, ID{}, false)

	if err != nil {
		return saveBlobResponse{}, err
	}

	return saveBlobResponse{
		id:    id,
		known: known,
		size:  size,
	}, nil
}

func (s *BlobSaver) worker(ctx context.Context, jobs <-chan saveBlobJob) error {
	for {
		var job saveBlobJob
		var ok bool
		select {
		case <-ctx.Done():
			return nil
		case job, ok = <-jobs:
			if !ok {
				return nil
			}
		}

		res, err := s.saveBlob(ctx, job.BlobType, job.buf.Data)
		if err != nil {
			close(job.ch)
			return err
		}
		job.ch <- res
		close(job.ch)
		job.buf.Release()
	}
}

// saveChunks mirrors FileSaver.saveFile: every chunk is read into a buffer
// from saveFilePool and handed to the BlobSaver.
func saveChunks(ctx context.Context, s *BlobSaver, saveFilePool *BufferPool, chunks [][]byte) uint64 {
	var results []FutureBlob
	for _, chunk := range chunks {
		buf := saveFilePool.Get()
		buf.Data = append(buf.Data[:0], chunk...)
		results = append(results, s.Save(ctx, DataBlob, buf))
	}

	var dataSize uint64
	for _, res := range results {
		res.Wait(ctx)
		dataSize += uint64(res.Length())
	}
	return dataSize
}
