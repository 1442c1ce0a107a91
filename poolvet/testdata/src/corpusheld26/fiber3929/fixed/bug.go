// Package bug reproduces the shape of gofiber/fiber#3929 (https://github.com/gofiber/fiber/pull/3929,
// fixed in commit https://github.com/gofiber/fiber/commit/7996fe24519d45a1b86b51384af1a42c7774bdb7):
// SaveFileToStorage streamed the uploaded file into a buffer taken from a byte-buffer pool whose
// release was deferred, then handed buf.Bytes() to Storage.SetWithContext. A Storage implementation
// may keep the slice it is given, so after the deferred Put the stored value aliased pooled memory that
// the next request overwrote. The fix hands the storage a private copy of the bytes.
// Check: useafterput (the view of the pooled buffer is handed to a storage that retains it past the
// deferred Put; report at the SetWithContext call).
package bug

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// ---- a small byte-buffer pool in the style of valyala/bytebufferpool ----

type ByteBuffer struct {
	B []byte
}

func (b *ByteBuffer) Len() int      { return len(b.B) }
func (b *ByteBuffer) Bytes() []byte { return b.B }
func (b *ByteBuffer) Reset()        { b.B = b.B[:0] }

func (b *ByteBuffer) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	chunk := make([]byte, 4096)
	for {
		n, err := r.Read(chunk)
		b.B = append(b.B, chunk[:n]...)
		total += int64(n)
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

const maxPooledSize = 1 << 20

var bufPool = sync.Pool{New: func() interface{} { return new(ByteBuffer) }}

func getBuffer() *ByteBuffer { return bufPool.Get().(*ByteBuffer) }

func putBuffer(b *ByteBuffer) {
	if cap(b.B) > maxPooledSize {
		return
	}
	b.Reset()
	bufPool.Put(b)
}

// ---- storage ----

type Storage interface {
	SetWithContext(ctx context.Context, key string, val []byte, ttl int) error
}

// memoryStorage is a Storage that keeps the slice it is given.
type memoryStorage struct {
	mu   sync.Mutex
	data map[string][]byte
}

func newMemoryStorage() *memoryStorage { return &memoryStorage{data: map[string][]byte{}} }

func (s *memoryStorage) SetWithContext(_ context.Context, key string, val []byte, _ int) error {
	s.mu.Lock()
	s.data[key] = val
	s.mu.Unlock()
	return nil
}

// ---- ctx ----

var ErrBodyTooLarge = errors.New("body size exceeds the given limit")

const DefaultBodyLimit = 4 * 1024 * 1024

type FileHeader struct {
	Size int64
	open func() (io.ReadCloser, error)
}

func (fh *FileHeader) Open() (io.ReadCloser, error) { return fh.open() }

type Config struct{ BodyLimit int }

type App struct{ config Config }

type DefaultCtx struct {
	app *App
	ctx context.Context
}

func (c *DefaultCtx) Context() context.Context { return c.ctx }

func (c *DefaultCtx) SaveFileToStorage(fileheader *FileHeader, path string, storage Storage) error {
	file, err := fileheader.Open()
	if err != nil {
		return fmt.Errorf("failed to open: %w", err)
	}
	defer file.Close() //nolint:errcheck // not needed

	maxUploadSize := c.app.config.BodyLimit
	if maxUploadSize <= 0 {
		maxUploadSize = DefaultBodyLimit
	}

	if fileheader.Size > 0 && fileheader.Size > int64(maxUploadSize) {
		return fmt.Errorf("failed to read: %w", ErrBodyTooLarge)
	}

	buf := getBuffer()
	defer putBuffer(buf)

	limitedReader := io.LimitReader(file, int64(maxUploadSize)+1)
	if _, err = buf.ReadFrom(limitedReader); err != nil {
		return fmt.Errorf("failed to read: %w", err)
	}

	if buf.Len() > maxUploadSize {
		return fmt.Errorf("failed to read: %w", ErrBodyTooLarge)
	}

	data := append([]byte(nil), buf.Bytes()...)

	if err := storage.SetWithContext(c.Context(), path, data, 0); err != nil {
		return fmt.Errorf("failed to store: %w", err)
	}

	return nil
}

func Save(c *DefaultCtx, fh *FileHeader) *memoryStorage {
	st := newMemoryStorage()
	_ = c.SaveFileToStorage(fh, "upload", st)
	return st
}
