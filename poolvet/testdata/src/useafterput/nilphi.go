package useafterput

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// A slice that holds either nothing or a struct holding a view of the
// pooled buffer (danielgtaylor/huma#687): used after the Put.
var bodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type detail struct {
	Message string
	Value   any
}

func validate(w io.Writer, r io.Reader, into any) error {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	if _, err := buf.ReadFrom(r); err != nil {
		return err
	}
	body := buf.Bytes()
	var errs []*detail
	if err := json.Unmarshal(body, into); err != nil {
		errs = append(errs, &detail{Message: err.Error(), Value: body})
	}
	if buf.Cap() <= 1<<20 {
		bodyPool.Put(buf)
	}
	if len(errs) > 0 {
		return json.NewEncoder(w).Encode(errs) // want `buf is used after it was put back into the pool`
	}
	return nil
}

// Silent: the detail holds a copy.
func validateFixed(w io.Writer, r io.Reader, into any) error {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	if _, err := buf.ReadFrom(r); err != nil {
		return err
	}
	body := buf.Bytes()
	var errs []*detail
	if err := json.Unmarshal(body, into); err != nil {
		errs = append(errs, &detail{Message: err.Error(), Value: bytes.Clone(body)})
	}
	if buf.Cap() <= 1<<20 {
		bodyPool.Put(buf)
	}
	if len(errs) > 0 {
		return json.NewEncoder(w).Encode(errs)
	}
	return nil
}
