package useafterput

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

var jsonBodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// setJSONBody makes the pooled buffer the request's body, then puts it
// back when it returns (palantir/conjure-go-runtime#93).
func setJSONBody(req *http.Request, v any) error {
	buf := jsonBodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer jsonBodyPool.Put(buf)
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		return err
	}
	req.Body = io.NopCloser(buf)
	return nil
}

func sendJSON(rt http.RoundTripper, req *http.Request, v any) (*http.Response, error) {
	if err := setJSONBody(req, v); err != nil {
		return nil, err
	}
	return rt.RoundTrip(req) // want `req holds memory of an object that setJSONBody \(line 27\) stored in it and then put back into the pool`
}

// The body is a copy: silent.
func setJSONBodyCopy(req *http.Request, v any) error {
	buf := jsonBodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer jsonBodyPool.Put(buf)
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		return err
	}
	req.Body = io.NopCloser(bytes.NewReader(bytes.Clone(buf.Bytes())))
	return nil
}

func sendJSONCopy(rt http.RoundTripper, req *http.Request, v any) (*http.Response, error) {
	if err := setJSONBodyCopy(req, v); err != nil {
		return nil, err
	}
	return rt.RoundTrip(req)
}
