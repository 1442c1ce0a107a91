// Package fixed is the fix of minio/minio#18652
// (https://github.com/minio/minio/pull/18652): the DeadlineReader is gone;
// CreateFile hands the reader to the storage layer as it is (network
// timeouts bound it), so no goroutine outlives the Read that received the
// pooled buffer.
package fixed

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"time"
)

const (
	smallFileThreshold   = 128 << 10
	largestFileThreshold = 64 << 20

	blockSizeSmall  = 128 << 10
	blockSizeLarge  = 1 << 20
	blockSizeXLarge = 4 << 20
)

var (
	ODirectPoolSmall = sync.Pool{New: func() any {
		b := make([]byte, blockSizeSmall)
		return &b
	}}
	ODirectPoolLarge = sync.Pool{New: func() any {
		b := make([]byte, blockSizeLarge)
		return &b
	}}
	ODirectPoolXLarge = sync.Pool{New: func() any {
		b := make([]byte, blockSizeXLarge)
		return &b
	}}
)

var (
	errLessData = errors.New("less data available than what was requested")
	errMoreData = errors.New("more data was sent than what was advertised")
)

// diskHealthWriter hides the file's ReadFrom so the copy goes through the
// buffer.
type diskHealthWriter struct {
	w io.Writer
}

func (d diskHealthWriter) Write(p []byte) (int, error) { return d.w.Write(p) }

type xlStorage struct{}

func (s *xlStorage) CreateFile(ctx context.Context, filePath string, fileSize int64, r io.Reader) error {
	return s.writeAllDirect(ctx, filePath, fileSize, r, os.O_CREATE|os.O_WRONLY|os.O_EXCL)
}

func (s *xlStorage) writeAllDirect(ctx context.Context, filePath string, fileSize int64, r io.Reader, flags int) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	w, err := os.OpenFile(filePath, flags, 0o666)
	if err != nil {
		return err
	}

	var bufp *[]byte
	switch {
	case fileSize > 0 && fileSize >= largestFileThreshold:
		bufp = ODirectPoolXLarge.Get().(*[]byte)
		defer ODirectPoolXLarge.Put(bufp)
	case fileSize <= smallFileThreshold:
		bufp = ODirectPoolSmall.Get().(*[]byte)
		defer ODirectPoolSmall.Put(bufp)
	default:
		bufp = ODirectPoolLarge.Get().(*[]byte)
		defer ODirectPoolLarge.Put(bufp)
	}

	written, err := io.CopyBuffer(diskHealthWriter{w}, r, *bufp)
	if err != nil {
		w.Close()
		return err
	}
	if written < fileSize && fileSize >= 0 {
		w.Close()
		return errLessData
	} else if written > fileSize && fileSize >= 0 {
		w.Close()
		return errMoreData
	}
	if err = w.Sync(); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

type xlStorageDiskIDCheck struct {
	storage    *xlStorage
	maxTimeout time.Duration
}

func (p *xlStorageDiskIDCheck) CreateFile(ctx context.Context, path string, size int64, reader io.Reader) error {
	return p.storage.CreateFile(ctx, path, size, io.NopCloser(reader))
}
