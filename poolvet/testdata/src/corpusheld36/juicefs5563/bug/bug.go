// Package bug reproduces the shape of juicedata/juicefs#5563
// (https://github.com/juicedata/juicefs/pull/5563, commit
// https://github.com/juicedata/juicefs/commit/3416e45d76e8c50f20f5ccf6fc5d74a2e5607e4e,
// "cache: fix buffer conflict in writeback mode"):
// in writeback mode a slice block (a refcounted Page whose Data comes from the
// size-class sync.Pools behind utils.Alloc/Free) is first staged to the local
// disk inside utils.WithTimeout, which runs the write in a goroutine and gives
// up after PutTimeout. On a timeout the uploader falls back to uploading the
// block directly, and that path drops the block's last reference, so its Data
// goes back to the pool while the abandoned staging goroutine is still writing
// it to disk; the buffer is handed to the next page and the staged file gets
// another block's bytes. The fix takes a reference for the staging goroutine
// (Acquire before WithTimeout, Release deferred inside the closure).
//
// Check: useafterput (the staging closure reads block.Data after the timeout
// path has released the page into the pool).
package bug

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

var ErrFuncTimeout = errors.New("function timeout")

var pools [24]*sync.Pool

func init() {
	for i := range pools {
		bits := i
		pools[i] = &sync.Pool{New: func() interface{} { b := make([]byte, 1<<bits); return &b }}
	}
}

func powerOf2(s int) int {
	bits, p := 0, 1
	for p < s {
		bits++
		p *= 2
	}
	return bits
}

// alloc returns size bytes from the size-class pools.
func alloc(size int) []byte {
	b := *pools[powerOf2(size)].Get().(*[]byte)
	return b[:size]
}

// free gives b back to its size-class pool.
func free(b []byte) {
	pools[powerOf2(cap(b))].Put(&b)
}

// Page is a page with refcount.
type Page struct {
	refs    int32
	offheap bool
	Data    []byte
}

func NewOffPage(size int) *Page {
	return &Page{refs: 1, offheap: true, Data: alloc(size)}
}

func (p *Page) Acquire() { atomic.AddInt32(&p.refs, 1) }

func (p *Page) Release() {
	if atomic.AddInt32(&p.refs, -1) == 0 {
		if p.offheap {
			free(p.Data)
		}
		p.Data = nil
	}
}

// WithTimeout runs f in a goroutine and stops waiting for it after timeout.
func WithTimeout(f func() error, timeout time.Duration) error {
	done := make(chan error, 1)
	t := time.NewTimer(timeout)
	go func() {
		done <- f()
	}()
	select {
	case err := <-done:
		t.Stop()
		return err
	case <-t.C:
		return fmt.Errorf("timeout after %s: %w", timeout, ErrFuncTimeout)
	}
}

type diskCache interface {
	stage(key string, data []byte) (string, error)
	removeStage(key string) error
}

type Config struct {
	Writeback  bool
	PutTimeout time.Duration
}

type cachedStore struct {
	conf          Config
	bcache        diskCache
	currentUpload chan bool
	put           func(key string, data []byte) error
	delayed       sync.Map
}

// upload compresses the block and sends it; it drops the caller's reference
// to block.
func (store *cachedStore) upload(key string, block *Page) error {
	buf := NewOffPage(len(block.Data))
	defer buf.Release()
	n := copy(buf.Data, block.Data)
	block.Release()
	return store.put(key, buf.Data[:n])
}

type wSlice struct {
	store  *cachedStore
	errors chan error
}

func (s *wSlice) upload(key string, block *Page) {
	go func() {
		if s.store.conf.Writeback {
			stagingPath := "unknown"
			// In case staging hangs, fall back to uploading directly.
			err := WithTimeout(func() (err error) {
				stagingPath, err = s.store.bcache.stage(key, block.Data) // want `useafterput`
				return err
			}, s.store.conf.PutTimeout)
			if err == nil {
				s.errors <- nil
				block.Release()
				s.store.delayed.Store(key, stagingPath)
				return
			}
		}
		s.store.currentUpload <- true
		defer func() { <-s.store.currentUpload }()
		s.errors <- s.store.upload(key, block)
	}()
}
