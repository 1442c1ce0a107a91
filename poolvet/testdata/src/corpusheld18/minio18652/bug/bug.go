// Package bug reproduces the shape of minio/minio#18652
// (https://github.com/minio/minio/pull/18652, commit 82b63a74e "Fix
// CreateFile shared buffer corruption"): the disk-id-check layer wrapped the
// incoming reader in a DeadlineReader, whose Read starts a goroutine that
// reads into the caller's buffer and gives up waiting when a timer fires.
// writeAllDirect copied the stream through a buffer from an ODirect
// sync.Pool and put it back (deferred) as soon as the copy failed, while the
// abandoned Read goroutine could still write into the recycled buffer.
//
// Check: useafterput (hand-off: the pooled buffer reaches a goroutine
// through io.CopyBuffer and the reader's Read, and a deferred Put follows
// with nothing waiting for it; per the docs the report is at the hand-off,
// the io.CopyBuffer call).
package bug

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

type ioret struct {
	n   int
	err error
}

// DeadlineReader makes every Read give up after timeout.
type DeadlineReader struct {
	io.ReadCloser
	timeout time.Duration
	err     error
}

func NewDeadlineReader(r io.ReadCloser, timeout time.Duration) io.ReadCloser {
	return &DeadlineReader{ReadCloser: r, timeout: timeout}
}

func (r *DeadlineReader) Read(buf []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	c := make(chan ioret, 1)
	t := time.NewTimer(r.timeout)
	go func() {
		n, err := r.ReadCloser.Read(buf)
		c <- ioret{n, err}
		close(c)
	}()
	select {
	case res := <-c:
		if !t.Stop() {
			<-t.C
		}
		r.err = res.err
		return res.n, res.err
	case <-t.C:
		r.ReadCloser.Close()
		r.err = context.DeadlineExceeded
		return 0, context.DeadlineExceeded
	}
}

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

	written, err := io.CopyBuffer(diskHealthWriter{w}, r, *bufp) // want `useafterput`
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
	return p.storage.CreateFile(ctx, path, size, NewDeadlineReader(io.NopCloser(reader), p.maxTimeout))
}
