// Package fixed is darkweak/storages#41 after
// https://github.com/darkweak/storages/pull/50: no pool, the decompressor is
// piped straight into http.ReadResponse, so the response owns its reader.
package fixed

import (
	"bufio"
	"bytes"
	"compress/flate"
	"net/http"
)

func readResponse(compressed []byte, req *http.Request) (*http.Response, error) {
	zr := flate.NewReader(bytes.NewReader(compressed))
	return http.ReadResponse(bufio.NewReader(zr), req)
}

// Get returns the cached response stored under key.
func Get(store map[string][]byte, key string, req *http.Request) (*http.Response, error) {
	v, ok := store[key]
	if !ok {
		return nil, nil
	}
	return readResponse(v, req)
}
