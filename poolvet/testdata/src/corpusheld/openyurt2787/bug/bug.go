// Package bug reproduces the shape of openyurtio/openyurt#2774, fixed by
// #2787 (https://github.com/openyurtio/openyurt/pull/2787): getResponse
// read the response headers through a pooled bufio.Reader and returned the
// parsed *http.Response, whose Body still reads from that reader, while a
// deferred Put gave the reader back to the pool; another goroutine reusing
// it raced with the body reads.
//
// Check: useafterput (retention through a standard-library constructor,
// http.ReadResponse, that keeps its argument in the value returned).
package bug

import (
	"bufio"
	"io"
	"net/http"
	"sync"
)

var bufioReaderPool sync.Pool

func getBufioReader(r io.Reader) *bufio.Reader {
	if br, ok := bufioReaderPool.Get().(*bufio.Reader); ok {
		br.Reset(r)
		return br
	}
	return bufio.NewReader(r)
}

func putBufioReader(br *bufio.Reader) {
	br.Reset(nil)
	bufioReaderPool.Put(br)
}

func getResponse(conn io.Reader, req *http.Request) (*http.Response, error) {
	br := getBufioReader(conn)
	defer putBufioReader(br)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		return nil, err
	}
	return resp, nil // want `shares memory|used after|useafterput|retain`
}
