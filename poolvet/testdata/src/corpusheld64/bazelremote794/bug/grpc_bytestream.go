// Source: https://github.com/buchgr/bazel-remote/pull/794 (fixes
// https://github.com/buchgr/bazel-remote/issues/789, a regression from
// https://github.com/buchgr/bazel-remote/pull/771, commit 67e0fea).
//
// Bug: grpcServer.Write gets a *syncpool.DecoderWrapper from a sync.Pool
// (decoderPool) inside its receive goroutine and hands dec.IOReadCloser() to
// a goroutine that streams it into s.cache.Put. Write itself defers
// dec.Close(), which resets the decoder and puts the DecoderWrapper back into
// the pool as soon as Write returns. On error paths (and under high load)
// Write returns while the cache.Put goroutine is still reading through the
// decoder, so another Write gets the same decoder from the pool while it is
// in use: bazel-remote segfaulted under high load.
//
// Fix (edba5fa, "Use original ... #770 fix"): drop the deferred dec.Close()
// in Write, keep dec local to the receive goroutine and let the goroutine
// that consumes the reader close it (defer rc.Close()), which returns the
// decoder to the pool only after cache.Put is done with it.
//
// Check: useafterput (the pooled decoder, via rc, is handed to the
// cache.Put goroutine while Write's deferred dec.Close() returns it to the
// pool when Write returns; reported at the go statement)
package bug

import (
	"errors"
	"fmt"
	"io"
	"log"
	"sync"
)

// ---- stand-in for github.com/klauspost/compress/zstd ----

type Decoder struct{ r io.Reader }

func (d *Decoder) Reset(r io.Reader) error { d.r = r; return nil }

func (d *Decoder) Read(p []byte) (int, error) {
	if d.r == nil {
		return 0, errors.New("zstd: decoder used after Reset(nil)")
	}
	return d.r.Read(p)
}

func (d *Decoder) IOReadCloser() io.ReadCloser { return io.NopCloser(d) }

// ---- github.com/mostynb/zstdpool-syncpool ----

type DecoderWrapper struct {
	*Decoder

	pool *sync.Pool
}

// Close resets the decoder and returns the DecoderWrapper to the pool.
func (w *DecoderWrapper) Close() {
	err := w.Decoder.Reset(nil)
	if err == nil {
		w.pool.Put(w)
	}
}

func (w *DecoderWrapper) IOReadCloser() io.ReadCloser {
	return &decoderReadCloser{
		dw:     w,
		Reader: w.Decoder.IOReadCloser(),
	}
}

type decoderReadCloser struct {
	dw *DecoderWrapper
	io.Reader
}

func (w *decoderReadCloser) Close() error {
	w.dw.Close() // Returns the DecoderWrapper to the pool.
	return nil
}

func NewDecoderPool() *sync.Pool {
	p := &sync.Pool{}
	p.New = func() interface{} {
		return &DecoderWrapper{Decoder: &Decoder{}, pool: p}
	}
	return p
}

// ---- bazel-remote server/grpc_bytestream.go ----

const (
	Identity  = 0
	Zstandard = 1
	CAS       = 0
)

type WriteRequest struct {
	ResourceName string
	WriteOffset  int64
	FinishWrite  bool
	Data         []byte
}

type WriteResponse struct{ CommittedSize int64 }

type ByteStream_WriteServer interface {
	Recv() (*WriteRequest, error)
	SendAndClose(*WriteResponse) error
}

type Cache interface {
	Put(kind int, hash string, size int64, r io.Reader) error
}

type grpcServer struct {
	cache        Cache
	accessLogger *log.Logger
	parse        func(string) (string, int64, int, error)
}

var decoderPool = NewDecoderPool()

var errDecoderPoolFail = errors.New("failed to get DecoderWrapper from pool")

func (s *grpcServer) Write(srv ByteStream_WriteServer) error {
	var resp WriteResponse
	pr, pw := io.Pipe()

	putResult := make(chan error, 1)
	recvResult := make(chan error, 1)

	cmp := Identity
	var dec *DecoderWrapper
	defer func() {
		if dec != nil {
			dec.Close()
		}
	}()

	go func() {
		firstIteration := true
		var size int64

		for {
			req, err := srv.Recv()
			if err == io.EOF {
				recvResult <- io.EOF
				return
			}
			if err != nil {
				recvResult <- err
				return
			}

			if firstIteration {
				var hash string
				hash, size, cmp, err = s.parse(req.ResourceName)
				if err != nil {
					recvResult <- err
					return
				}

				var rc io.ReadCloser = pr
				if cmp == Zstandard {
					var ok bool
					dec, ok = decoderPool.Get().(*DecoderWrapper)
					if !ok {
						s.accessLogger.Printf("GRPC BYTESTREAM WRITE FAILED: %s", errDecoderPoolFail)
						recvResult <- errDecoderPoolFail
						return
					}
					err = dec.Reset(pr)
					if err != nil {
						recvResult <- err
						return
					}
					rc = dec.IOReadCloser()
				}

				go func() { // want `useafterput`
					err := s.cache.Put(CAS, hash, size, rc)
					putResult <- err
				}()

				firstIteration = false
			}

			n, err := pw.Write(req.Data)
			if err != nil {
				recvResult <- err
				return
			}
			resp.CommittedSize += int64(n)

			if req.FinishWrite {
				recvResult <- io.EOF
				return
			}
		}
	}()

	select {
	case err := <-recvResult:
		if err == io.EOF {
			pw.Close()
			break
		}
		_ = pw.CloseWithError(err)
		s.accessLogger.Printf("GRPC BYTESTREAM WRITE FAILED: %s", err)
		return err
	case err := <-putResult:
		return fmt.Errorf("GRPC BYTESTREAM WRITE CACHE ERROR: %v", err)
	}

	err := <-putResult
	if err != nil {
		return err
	}
	return srv.SendAndClose(&resp)
}
