// Package bug reproduces the shape of danielgtaylor/huma#687
// (https://github.com/danielgtaylor/huma/pull/687, fixing issue #685):
// the request handler read the body into a pooled buffer, and a
// validation error kept the body bytes (a slice of that buffer) as its
// value. The buffer went back to the pool before the error response was
// marshaled, so another request could overwrite the bytes the error was
// about to write out (a race seen with -race -parallel).
//
// Check: useafterput (retention: an error detail built from a slice of the
// pooled buffer is used after the buffer is put back).
package bug

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

type ErrorDetail struct {
	Message  string `json:"message"`
	Location string `json:"location"`
	Value    any    `json:"value,omitempty"`
}

type ErrorModel struct {
	Status int            `json:"status"`
	Title  string         `json:"title"`
	Errors []*ErrorDetail `json:"errors"`
}

const maxPooledBody = 1 << 20

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func writeErr(w io.Writer, model *ErrorModel) error {
	return json.NewEncoder(w).Encode(model)
}

// handle reads and validates a request body, then answers.
func handle(w io.Writer, r io.Reader, into any) error {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	if _, err := buf.ReadFrom(r); err != nil {
		return err
	}
	body := buf.Bytes()

	var errs []*ErrorDetail
	if err := json.Unmarshal(body, into); err != nil {
		errs = append(errs, &ErrorDetail{
			Message:  err.Error(),
			Location: "body",
			Value:    body,
		})
	}

	buf.Reset()
	if buf.Cap() <= maxPooledBody {
		bufPool.Put(buf)
	}

	if len(errs) > 0 {
		return writeErr(w, &ErrorModel{Status: 422, Title: "Unprocessable Entity", Errors: errs}) // want `useafterput`
	}
	return nil
}
