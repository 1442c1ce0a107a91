// Package bug reproduces the shape of darkweak/storages#41
// (https://github.com/darkweak/storages/issues/41; fix merged as
// https://github.com/darkweak/storages/pull/50, also described in #43 and
// #47): readResponse decompressed a cached entry into a bytes.Buffer from a
// sync.Pool, parsed it with http.ReadResponse, and a deferred closure reset
// the buffer and put it back. The returned *http.Response's Body still read
// from that buffer, so cached responses came back truncated or mixed up.
//
// Check: useafterput (the response built over bufio.NewReader(buf) leaks
// through the return past a deferred, size-guarded Put; the report is at the
// return).
package bug

import (
	"bufio"
	"bytes"
	"compress/flate"
	"net/http"
	"sync"
)

const maxPooledBuf = 1 << 20

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func readResponse(compressed []byte, req *http.Request) (*http.Response, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() > maxPooledBuf {
			return
		}
		buf.Reset()
		bufPool.Put(buf)
	}()

	zr := flate.NewReader(bytes.NewReader(compressed))
	defer zr.Close()
	if _, err := buf.ReadFrom(zr); err != nil {
		return nil, err
	}

	return http.ReadResponse(bufio.NewReader(buf), req) // want `useafterput`
}

// Get returns the cached response stored under key.
func Get(store map[string][]byte, key string, req *http.Request) (*http.Response, error) {
	v, ok := store[key]
	if !ok {
		return nil, nil
	}
	return readResponse(v, req)
}
