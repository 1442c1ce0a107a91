// Package bug reproduces the shape of hanwen/go-fuse commit c8a1ba96
// (https://github.com/hanwen/go-fuse/commit/c8a1ba964d419dfcf4c0a7d61834ad881a8eaccb,
// "Discard data in splice pair when returning to pool"):
// go-fuse keeps a pool of pipe pairs for splicing read replies to the kernel.
// TrySplice takes a pair, writes the reply header into it, then splices the
// file data in; when that fails it returns an error and the deferred
// splice.Done puts the pair back with the header (and any partial data) still
// sitting in the pipe. The next request that takes the pair writes its own
// reply behind those stale bytes and sends the kernel a corrupt reply. The fix
// drains the pipe in done() before the pair goes back to the pool. (go-fuse's
// pool is a mutex-guarded free list; it is modelled here on a sync.Pool.)
//
// Check: noreset (the pair goes back to the pool with unread data in its pipe;
// report at the Put in done, where the drain is missing).
package bug

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Pair is a pipe used to move data between file descriptors.
type Pair struct {
	r, w *os.File
	size int
}

func newSplicePair() (*Pair, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	return &Pair{r: r, w: w, size: 64 << 10}, nil
}

func (p *Pair) Grow(n int) bool { return n <= p.size }

func (p *Pair) Read(d []byte) (int, error)  { return p.r.Read(d) }
func (p *Pair) Write(d []byte) (int, error) { return p.w.Write(d) }

// LoadFrom moves sz bytes from src into the pipe.
func (p *Pair) LoadFrom(src io.Reader, sz int) (int, error) {
	if sz > p.size {
		return 0, fmt.Errorf("LoadFrom: not enough space %d, %d", sz, p.size)
	}
	n, err := io.CopyN(p.w, src, int64(sz))
	return int(n), err
}

// WriteTo moves n bytes from the pipe to dst.
func (p *Pair) WriteTo(dst io.Writer, n int) (int, error) {
	m, err := io.CopyN(dst, p.r, int64(n))
	return int(m), err
}

type pairPool struct {
	mu        sync.Mutex
	usedCount int
	unused    sync.Pool
}

var splicePool = &pairPool{}

func Get() (*Pair, error) { return splicePool.get() }

func Done(p *Pair) { splicePool.done(p) }

func (pp *pairPool) get() (*Pair, error) {
	pp.mu.Lock()
	pp.usedCount++
	pp.mu.Unlock()
	if p, ok := pp.unused.Get().(*Pair); ok {
		return p, nil
	}
	return newSplicePair()
}

func (pp *pairPool) done(p *Pair) {
	pp.mu.Lock()
	pp.usedCount--
	pp.mu.Unlock()
	pp.unused.Put(p) // want `noreset`
}

type readResult struct {
	Data   []byte
	Fd     *os.File
	FdSize int
}

type MountState struct {
	mountFile io.Writer
}

// TrySplice sends header followed by the file data through a pipe pair.
func (ms *MountState) TrySplice(header []byte, res *readResult) error {
	finalSplice, err := Get()
	if err != nil {
		return err
	}
	defer Done(finalSplice)

	total := len(header) + res.FdSize
	if !finalSplice.Grow(total) {
		return errors.New("splice.Grow failed")
	}

	if _, err = finalSplice.Write(header); err != nil {
		return err
	}

	n, err := finalSplice.LoadFrom(res.Fd, res.FdSize)
	if err != nil {
		// the header is still in the pipe
		return err
	}
	if n != res.FdSize {
		return fmt.Errorf("splice: wrote %d, expected %d", n, res.FdSize)
	}

	if _, err = finalSplice.WriteTo(ms.mountFile, total); err != nil {
		return fmt.Errorf("splice write: %v", err)
	}
	return nil
}
