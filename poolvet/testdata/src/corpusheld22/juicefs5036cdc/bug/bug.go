// Package bug reproduces the shape of juicedata/juicefs commit 5036cdcfe ("fix use after free",
// https://github.com/juicedata/juicefs/commit/5036cdcfe8d3ec2aa1a3eb166432d1759c6acaa7):
// cachedStore.load downloads a compressed block inside a closure run by utils.WithTimeout.
// The scratch buffer for the compressed bytes is an off-heap Page (NewOffPage -> utils.Alloc,
// a size-classed set of sync.Pools), and its `defer c.Release()` sits inside the closure, so
// the page's Data goes back to the pool (utils.Free) as soon as the closure returns. The
// captured slice buf is then decompressed after WithTimeout returns, reading memory that
// another download may already have taken from the pool.
// Check: useafterput (buf, the Data of the released page, read by Decompress after the
// closure's deferred Release returned it to the pool).
package bug

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// ---- utils: allocation from size-classed pools ----

var pools []*sync.Pool

func powerOf2(s int) int {
	var bits int
	p := 1
	for p < s {
		bits++
		p *= 2
	}
	return bits
}

func init() {
	pools = make([]*sync.Pool, 33)
	for i := 0; i < 33; i++ {
		func(bits int) {
			pools[i] = &sync.Pool{New: func() interface{} {
				b := make([]byte, 1<<bits)
				return &b
			}}
		}(i)
	}
}

// Alloc returns size bytes taken from a pool.
func Alloc(size int) []byte {
	b := *pools[powerOf2(size)].Get().(*[]byte)
	return b[:size]
}

// Free gives b back to its pool.
func Free(b []byte) {
	pools[powerOf2(cap(b))].Put(&b)
}

// WithTimeout runs f and waits for it, up to timeout.
func WithTimeout(f func() error, timeout time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(timeout):
		return errors.New("timeout")
	}
}

// ---- chunk: ref-counted pages ----

type Page struct {
	refs    int32
	offheap bool
	Data    []byte
}

func NewOffPage(size int) *Page {
	return &Page{refs: 1, offheap: true, Data: Alloc(size)}
}

func (p *Page) Acquire() { atomic.AddInt32(&p.refs, 1) }

func (p *Page) Release() {
	if atomic.AddInt32(&p.refs, -1) == 0 {
		if p.offheap {
			Free(p.Data)
		}
		p.Data = nil
	}
}

type compressor interface {
	CompressBound(int) int
	Decompress(dst, src []byte) (int, error)
}

type objectStorage interface {
	Get(key string, off, limit int64) (io.ReadCloser, error)
}

type cachedStore struct {
	storage    objectStorage
	compressor compressor
	getTimeout time.Duration
}

func (store *cachedStore) load(key string, page *Page) (err error) {
	needed := store.compressor.CompressBound(len(page.Data))
	compressed := needed > len(page.Data)
	err = errors.New("not downloaded")
	var in io.ReadCloser
	tried := 0
	var n int
	var buf []byte
	page.Acquire()
	err = WithTimeout(func() error {
		defer page.Release()
		for err != nil && tried < 2 {
			time.Sleep(time.Second * time.Duration(tried*tried))
			in, err = store.storage.Get(key, 0, -1)
			tried++
		}
		if err == nil {
			if compressed {
				c := NewOffPage(needed)
				defer c.Release()
				buf = c.Data
			} else {
				buf = page.Data
			}
			n, err = io.ReadFull(in, buf)
			_ = in.Close()
		}
		if compressed && err == io.ErrUnexpectedEOF {
			err = nil
		}
		return err
	}, store.getTimeout)
	if err != nil {
		return fmt.Errorf("get %s: %s", key, err)
	}
	if compressed {
		n, err = store.compressor.Decompress(page.Data, buf[:n]) // want `useafterput`
	}
	if err != nil || n < len(page.Data) {
		return fmt.Errorf("read %s fully: %v (%d < %d) (tried %d)", key, err, n, len(page.Data), tried)
	}
	return nil
}
