// Package bug reproduces the shape of seaweedfs/seaweedfs#9100
// (https://github.com/seaweedfs/seaweedfs/pull/9100, fix commit
// https://github.com/seaweedfs/seaweedfs/commit/a820778a8486502e6ea9a6d81518d475e83a6cfd):
// the filer's reader cache wrapped chunk downloads in a singleflight group, so
// every chunk cacher that joined an in-flight fetch of the same file id got the
// very same pooled buffer back. Each cacher believes it owns its data and gives
// it back to the slab pool in destroy(), so when two cachers of one file id
// (an evicted one and its replacement) are destroyed, the one buffer is freed
// twice, and readers of the survivor read memory another chunk now owns.
// The fix drops the singleflight and lets every cacher allocate its own buffer.
//
// Fixed twin: each cacher allocates its own buffer; no singleflight.
//
// Check: doubleput (the buffer a cacher got from the shared fetch is freed by
// every cacher holding it; report at the free call in destroy that
// leads to the second Put).
package bug

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// slab pool, in the manner of weed/util/mem.

var slabPool = sync.Pool{New: func() interface{} { b := make([]byte, 0, 1<<20); return &b }}

func allocate(size int) []byte {
	p := slabPool.Get().(*[]byte)
	if cap(*p) < size {
		*p = make([]byte, size)
	}
	return (*p)[:size]
}

func free(buf []byte) {
	if cap(buf) > 8<<20 {
		return
	}
	slabPool.Put(&buf)
}

type fetchFunc func(ctx context.Context, fileID string, dst []byte) error

type ReaderCache struct {
	sync.Mutex
	fetch       fetchFunc
	downloaders map[string]*SingleChunkCacher
	limit       int
}

type SingleChunkCacher struct {
	sync.Mutex
	parent           *ReaderCache
	chunkFileID      string
	chunkSize        int
	data             []byte
	err              error
	completedTimeNew int64
	wg               sync.WaitGroup
	cacheStartedCh   chan struct{}
	done             chan struct{}
}

func NewReaderCache(limit int, fetch fetchFunc) *ReaderCache {
	return &ReaderCache{fetch: fetch, limit: limit, downloaders: map[string]*SingleChunkCacher{}}
}

func (rc *ReaderCache) ReadChunkAt(ctx context.Context, buffer []byte, fileID string, offset int64, chunkSize int) (int, error) {
	rc.Lock()
	if cacher, found := rc.downloaders[fileID]; found {
		rc.Unlock()
		return cacher.readChunkAt(ctx, buffer, offset)
	}

	if len(rc.downloaders) >= rc.limit {
		oldestFid, oldestTime := "", time.Now().UnixNano()
		for fid, d := range rc.downloaders {
			t := atomic.LoadInt64(&d.completedTimeNew)
			if t > 0 && t < oldestTime {
				oldestFid, oldestTime = fid, t
			}
		}
		if oldestFid != "" {
			old := rc.downloaders[oldestFid]
			delete(rc.downloaders, oldestFid)
			old.destroy()
		}
	}

	cacher := &SingleChunkCacher{
		parent:         rc,
		chunkFileID:    fileID,
		chunkSize:      chunkSize,
		cacheStartedCh: make(chan struct{}),
		done:           make(chan struct{}),
	}
	go cacher.startCaching()
	<-cacher.cacheStartedCh
	rc.downloaders[fileID] = cacher
	rc.Unlock()

	return cacher.readChunkAt(ctx, buffer, offset)
}

// UnCache drops the cacher of a file id; a new read of the same id may start a
// new cacher while the old fetch is still in flight.
func (rc *ReaderCache) UnCache(fileID string) {
	rc.Lock()
	defer rc.Unlock()
	if d, found := rc.downloaders[fileID]; found {
		d.destroy()
		delete(rc.downloaders, fileID)
	}
}

func (s *SingleChunkCacher) startCaching() {
	s.wg.Add(1)
	defer s.wg.Done()
	defer close(s.done)

	s.cacheStartedCh <- struct{}{}

	// Every cacher fetches into a buffer of its own.
	data := allocate(s.chunkSize)
	err := s.parent.fetch(context.Background(), s.chunkFileID, data)

	s.Lock()
	if err != nil {
		free(data)
		s.err = err
	} else {
		s.data = data
		atomic.StoreInt64(&s.completedTimeNew, time.Now().UnixNano())
	}
	s.Unlock()
}

func (s *SingleChunkCacher) destroy() {
	s.wg.Wait()
	s.Lock()
	defer s.Unlock()

	if s.data != nil {
		free(s.data)
		s.data = nil
	}
}

func (s *SingleChunkCacher) readChunkAt(ctx context.Context, buf []byte, offset int64) (int, error) {
	s.wg.Add(1)
	defer s.wg.Done()

	select {
	case <-s.done:
	case <-ctx.Done():
		return 0, ctx.Err()
	}

	s.Lock()
	defer s.Unlock()
	if s.err != nil {
		return 0, s.err
	}
	if len(s.data) <= int(offset) {
		return 0, errors.New("offset beyond chunk")
	}
	return copy(buf, s.data[offset:]), nil
}
