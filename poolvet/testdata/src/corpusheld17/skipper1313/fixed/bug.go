// Package fixed is the fix of zalando/skipper#1313
// (https://github.com/zalando/skipper/pull/1313): the cleanup closure
// closes the encoder first and only then puts it back into the pool (and
// only when Close succeeded), so nothing touches the encoder after the Put.
package fixed

import (
	"compress/flate"
	"compress/gzip"
	"io"
	"sync"
)

const bufferSize = 8192

type encoder interface {
	io.WriteCloser
	Reset(io.Writer)
	Flush() error
}

func newEncoder(enc string, level int) (encoder, error) {
	if enc == "gzip" {
		return gzip.NewWriterLevel(nil, level)
	}
	return flate.NewWriter(nil, level)
}

var (
	gzipPool = &sync.Pool{New: func() any {
		e, _ := newEncoder("gzip", flate.BestSpeed)
		return e
	}}
	deflatePool = &sync.Pool{New: func() any {
		e, _ := newEncoder("deflate", flate.BestSpeed)
		return e
	}}
)

func encoderPool(enc string) *sync.Pool {
	if enc == "gzip" {
		return gzipPool
	}
	return deflatePool
}

// putEncoder drops the encoder's reference to its last output and pools it.
func putEncoder(pool *sync.Pool, pe any) {
	pe.(encoder).Reset(io.Discard)
	pool.Put(pe)
}

func encode(out *io.PipeWriter, in io.ReadCloser, enc string, level int) {
	var (
		e   encoder
		err error
	)

	defer func() {
		if e != nil {
			cerr := e.Close()
			if cerr == nil && level == flate.BestSpeed {
				putEncoder(encoderPool(enc), e)
			}
		}
		if err == nil {
			err = io.EOF
		}
		out.CloseWithError(err)
		in.Close()
	}()

	if level == flate.BestSpeed {
		e = encoderPool(enc).Get().(encoder)
		if e == nil {
			return
		}
	} else {
		e, err = newEncoder(enc, level)
		if err != nil {
			return
		}
	}

	e.Reset(out)

	b := make([]byte, bufferSize)
	for {
		n, rerr := in.Read(b)
		if n > 0 {
			if _, err = e.Write(b[:n]); err != nil {
				break
			}
			if err = e.Flush(); err != nil {
				break
			}
		}
		if rerr != nil {
			err = rerr
			break
		}
	}
}
