// Package bug reproduces the shape of cloudwego/hertz#842
// (https://github.com/cloudwego/hertz/pull/842): request bodies can be read as
// streams through a *bodyStream taken from bodyStreamPool. ReleaseBodyStream
// drains the rest of the body, clears some fields inline (prefetched bytes,
// offset, reader, trailer) and puts the stream back, but forgets the chunked
// state: chunkLeft (and contentLength/chunkEOF) survive into the next request.
// AcquireBodyStream does not set chunkLeft either, so a stream released in the
// middle of a chunk makes the next chunked body skip parsing its first chunk
// size. The fix moved the clearing into a reset method covering every field.
// Check: noreset (the report belongs on the Put in ReleaseBodyStream).
package bug

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"sync"
)

// Reader is the connection reader used by the HTTP/1 parser.
type Reader interface {
	Peek(n int) ([]byte, error)
	Skip(n int) error
	Release() error
}

// Trailer collects trailing headers.
type Trailer struct {
	kv map[string]string
}

var bodyStreamPool = sync.Pool{
	New: func() interface{} {
		return &bodyStream{}
	},
}

type bodyStream struct {
	prefetchedBytes *bytes.Reader
	reader          Reader
	trailer         *Trailer
	offset          int
	contentLength   int
	chunkLeft       int
	// whether the chunk has reached the EOF
	chunkEOF bool
}

// AcquireBodyStream wraps the already read prefix b and the connection r.
func AcquireBodyStream(b []byte, r Reader, t *Trailer, contentLength int) io.Reader {
	rs := bodyStreamPool.Get().(*bodyStream)
	rs.prefetchedBytes = bytes.NewReader(b)
	rs.reader = r
	rs.contentLength = contentLength
	rs.trailer = t
	rs.chunkEOF = false
	return rs
}

func parseChunkSize(r Reader) (int, error) {
	line, err := r.Peek(8)
	if err != nil && len(line) == 0 {
		return 0, err
	}
	i := bytes.IndexByte(line, '\r')
	if i < 0 {
		return 0, errors.New("bad chunk size")
	}
	n, err := strconv.ParseInt(string(line[:i]), 16, 64)
	if err != nil {
		return 0, err
	}
	if err := r.Skip(i + 2); err != nil {
		return 0, err
	}
	return int(n), nil
}

func (rs *bodyStream) Read(p []byte) (int, error) {
	if rs.contentLength == -1 {
		if rs.chunkEOF {
			return 0, io.EOF
		}
		if rs.chunkLeft == 0 {
			chunkSize, err := parseChunkSize(rs.reader)
			if err != nil {
				return 0, err
			}
			if chunkSize == 0 {
				rs.chunkEOF = true
				return 0, io.EOF
			}
			rs.chunkLeft = chunkSize
		}
		bytesToRead := len(p)
		if bytesToRead > rs.chunkLeft {
			bytesToRead = rs.chunkLeft
		}
		src, err := rs.reader.Peek(bytesToRead)
		copied := copy(p, src)
		rs.reader.Skip(copied) // nolint: errcheck
		rs.chunkLeft -= copied
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return copied, err
		}
		return copied, nil
	}
	if rs.offset == rs.contentLength {
		return 0, io.EOF
	}
	n, err := rs.prefetchedBytes.Read(p)
	rs.offset += n
	if rs.offset == rs.contentLength {
		return n, io.EOF
	}
	return n, err
}

func (rs *bodyStream) skipRest() error {
	p := make([]byte, 4096)
	for {
		_, err := rs.Read(p)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// ReleaseBodyStream drains and recycles a stream made by AcquireBodyStream.
func ReleaseBodyStream(requestReader io.Reader) (err error) {
	if rs, ok := requestReader.(*bodyStream); ok {
		err = rs.skipRest()
		rs.prefetchedBytes = nil
		rs.offset = 0
		rs.reader = nil
		rs.trailer = nil
		bodyStreamPool.Put(rs) // want `noreset`
	}
	return
}
