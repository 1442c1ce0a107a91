// Package fixed is the fix of openyurtio/openyurt#2787
// (https://github.com/openyurtio/openyurt/pull/2787): a fresh bufio.Reader
// for each response, owned by the response body.
package fixed

import (
	"bufio"
	"io"
	"net/http"
)

func getResponse(conn io.Reader, req *http.Request) (*http.Response, error) {
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		return nil, err
	}
	return resp, nil
}
