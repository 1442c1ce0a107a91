// Package bug reproduces the shape of cubefs/cubefs#2258 / #2257
// (https://github.com/cubefs/cubefs/issues/2258, fixed by commit
// f4a8d9f16044ec125c1b4fc57a5e9e4816d6d0f2 "Fix the logic of returning the
// cache to the cache pool"): on a cold volume the FUSE File keeps a blobstore
// Writer whose write cache comes from the global CachePool. Release returns
// that cache in a deferred fWriter.FreeCache(). FreeCache puts writer.buf back
// but keeps the pointer, and Open for O_RDONLY leaves the old writer in place,
// so a file opened for writing and then read-only is released twice with the
// same writer and the same cache buffer goes into the pool twice; later writes
// get two identical buffers from the pool. The fix makes FreeCache idempotent
// (once + clear the field) and drops the stale writer on Open.
//
// Check: doubleput (reported at the CachePool.Put in FreeCache, which returns
// the buffer while writer.buf still points at it, so the next Release puts it
// again).
package bug

import (
	"sync"
	"sync/atomic"
	"syscall"
)

var cacheCount int64

// FileCachePool is the client's write-cache pool.
type FileCachePool struct {
	pool *sync.Pool
}

// CachePool is the global write-cache pool (nil when caching is off).
var CachePool *FileCachePool

// InitCachePool sets up CachePool for blocks of blockSize bytes.
func InitCachePool(blockSize int) {
	if blockSize == 0 {
		return
	}
	CachePool = &FileCachePool{pool: &sync.Pool{
		New: func() interface{} {
			b := make([]byte, blockSize)
			return &b
		},
	}}
}

func (p *FileCachePool) Get() *[]byte {
	atomic.AddInt64(&cacheCount, 1)
	return p.pool.Get().(*[]byte)
}

func (p *FileCachePool) Put(data *[]byte) {
	atomic.AddInt64(&cacheCount, -1)
	p.pool.Put(data)
}

// ClientConfig is what a blobstore reader or writer is built from.
type ClientConfig struct {
	Ino      uint64
	FileSize uint64
}

// Writer buffers writes to the blobstore.
type Writer struct {
	ino      uint64
	fileSize uint64
	buf      *[]byte
	dirty    bool
}

func NewWriter(cfg ClientConfig) *Writer {
	w := &Writer{ino: cfg.Ino, fileSize: cfg.FileSize}
	w.AllocateCache()
	return w
}

func (w *Writer) AllocateCache() {
	if CachePool == nil {
		return
	}
	w.buf = CachePool.Get()
}

// FreeCache returns the write cache to the pool.
func (w *Writer) FreeCache() {
	if CachePool == nil {
		return
	}
	CachePool.Put(w.buf) // want `doubleput`
}

// Reader reads from the blobstore.
type Reader struct {
	ino uint64
}

func NewReader(cfg ClientConfig) *Reader { return &Reader{ino: cfg.Ino} }

// File is an open FUSE file on a cold volume.
type File struct {
	ino     uint64
	size    uint64
	fReader *Reader
	fWriter *Writer
}

// Open (re)creates the blobstore reader/writer for the open mode.
func (f *File) Open(flags uint32) *File {
	cfg := ClientConfig{Ino: f.ino, FileSize: f.size}
	switch flags & 0x0f {
	case syscall.O_RDONLY:
		f.fReader = NewReader(cfg)
	case syscall.O_WRONLY:
		f.fWriter = NewWriter(cfg)
	case syscall.O_RDWR:
		f.fReader = NewReader(cfg)
		f.fWriter = NewWriter(cfg)
	}
	return f
}

// Release handles the FUSE release request.
func (f *File) Release() (err error) {
	defer func() {
		if f.fWriter != nil {
			f.fWriter.FreeCache()
		}
	}()
	err = closeStream(f.ino)
	return err
}

func closeStream(ino uint64) error {
	if ino == 0 {
		return syscall.EINVAL
	}
	return nil
}
