// Package fixed is the fix of danielgtaylor/huma#687
// (https://github.com/danielgtaylor/huma/pull/687): the error keeps
// string(body), a copy, so nothing in the response points into the pooled
// buffer once it is put back.
package fixed

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
			Value:    string(body),
		})
	}

	buf.Reset()
	if buf.Cap() <= maxPooledBody {
		bufPool.Put(buf)
	}

	if len(errs) > 0 {
		return writeErr(w, &ErrorModel{Status: 422, Title: "Unprocessable Entity", Errors: errs})
	}
	return nil
}
