// Package bug reproduces the shape of maximhq/bifrost#1836
// (https://github.com/maximhq/bifrost/pull/1836): streaming compression
// support for providers added a sync.Pool of *gzip.Reader with
// AcquireGzipReader / ReleaseGzipReader helpers. ReleaseGzipReader closes the
// reader and puts it straight back; a gzip.Reader keeps the source it was
// Reset onto (the upstream response body stream) and its last header, so an
// idle pooled reader pins the previous request's body and state. The review
// asked for the reader to be zeroed (*gz = gzip.Reader{}) before the Put.
//
// Check: noreset (a pooled object put back still referring to the previous
// user's data), reported at the Put in ReleaseGzipReader.
package bug

import (
	"bufio"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"sync"
)

// gzipReaderPool reuses gzip.Reader instances across requests.
var gzipReaderPool = sync.Pool{
	New: func() any {
		return &gzip.Reader{}
	},
}

func safeReset(fn func() error) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return fn() == nil
}

// AcquireGzipReader gets a gzip.Reader from the pool bound to r, or a new one
// if the pool is empty or the reset fails.
func AcquireGzipReader(r io.Reader) (*gzip.Reader, error) {
	if v := gzipReaderPool.Get(); v != nil {
		if gz, ok := v.(*gzip.Reader); ok {
			if safeReset(func() error { return gz.Reset(r) }) {
				return gz, nil
			}
		}
	}
	return gzip.NewReader(r)
}

// ReleaseGzipReader closes and returns a gzip.Reader to the pool.
func ReleaseGzipReader(gz *gzip.Reader) {
	if gz != nil {
		gz.Close()
		gzipReaderPool.Put(gz) // want `noreset`
	}
}

// StreamChunk is one server-sent event data line.
type StreamChunk struct {
	Data string
}

// handleStreaming reads a provider's SSE stream, decompressing it when the
// upstream sent it gzip-encoded.
func handleStreaming(resp *http.Response, out chan<- StreamChunk) error {
	defer resp.Body.Close()
	defer close(out)

	var reader io.Reader = resp.Body
	if strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
		gz, err := AcquireGzipReader(resp.Body)
		if err != nil {
			return err
		}
		defer ReleaseGzipReader(gz)
		reader = gz
	}

	scanner := bufio.NewScanner(reader)
	for scanner.Scan() {
		line := scanner.Text()
		if !strings.HasPrefix(line, "data: ") {
			continue
		}
		data := strings.TrimPrefix(line, "data: ")
		if data == "[DONE]" {
			break
		}
		out <- StreamChunk{Data: data}
	}
	return scanner.Err()
}
