// Package bug reproduces the shape of rqlite/rqlite#1193
// (https://github.com/rqlite/rqlite/pull/1193, bug added in commit
// 3f05fb8f3239ca6a779613eeeedb2aaf1fc68574 and fixed in
// https://github.com/rqlite/rqlite/commit/b425d0f8e16bbf958a51a4864c7a7e00ffa0267b
// "Can't use sync since the buf escapes"): noEscapeEncode, the marshal function
// behind Encoder.JSONMarshal and JSONMarshalIndent, took a bytes.Buffer from a
// sync.Pool, deferred a Reset+Put, JSON-encoded the query result into it and
// returned bytes.TrimRight(buf.Bytes(), "\n"). That slice still points into the
// pooled buffer, which the deferred closure has reset and put back by the time
// the HTTP layer writes the response, so a concurrent request can overwrite it.
//
// Check: useafterput (the returned slice aliases the buffer the deferred Put
// gives back; report at the return).
package bug

import (
	"bytes"
	"encoding/json"
	"sync"
)

type Rows struct {
	Columns []string        `json:"columns,omitempty"`
	Types   []string        `json:"types,omitempty"`
	Values  [][]interface{} `json:"values,omitempty"`
	Error   string          `json:"error,omitempty"`
	Time    float64         `json:"time,omitempty"`
}

type AssociativeRows struct {
	Types map[string]string        `json:"types,omitempty"`
	Rows  []map[string]interface{} `json:"rows"`
	Error string                   `json:"error,omitempty"`
	Time  float64                  `json:"time,omitempty"`
}

func associative(r *Rows) *AssociativeRows {
	a := &AssociativeRows{Types: map[string]string{}, Error: r.Error, Time: r.Time}
	for i, c := range r.Columns {
		if i < len(r.Types) {
			a.Types[c] = r.Types[i]
		}
	}
	for _, vals := range r.Values {
		row := map[string]interface{}{}
		for i, c := range r.Columns {
			if i < len(vals) {
				row[c] = vals[i]
			}
		}
		a.Rows = append(a.Rows, row)
	}
	return a
}

// Encoder is used to JSON marshal query results.
type Encoder struct {
	Associative bool
}

// JSONMarshal implements the marshal interface.
func (e *Encoder) JSONMarshal(i interface{}) ([]byte, error) {
	return jsonMarshal(i, noEscapeEncode, e.Associative)
}

// JSONMarshalIndent implements the marshal indent interface.
func (e *Encoder) JSONMarshalIndent(i interface{}, prefix, indent string) ([]byte, error) {
	f := func(i interface{}) ([]byte, error) {
		b, err := noEscapeEncode(i)
		if err != nil {
			return nil, err
		}
		var out bytes.Buffer
		json.Indent(&out, b, prefix, indent)
		return out.Bytes(), nil
	}
	return jsonMarshal(i, f, e.Associative)
}

// Use a buffer pool to reduce allocations.
var bufferPool = sync.Pool{
	New: func() interface{} {
		return new(bytes.Buffer)
	},
}

func noEscapeEncode(i interface{}) ([]byte, error) {
	buf := bufferPool.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() > 64<<10 {
			return
		}
		buf.Reset()
		bufferPool.Put(buf)
	}()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(i); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil // want `useafterput`
}

type marshalFunc func(i interface{}) ([]byte, error)

func jsonMarshal(i interface{}, f marshalFunc, assoc bool) ([]byte, error) {
	switch v := i.(type) {
	case *Rows:
		if assoc {
			return f(associative(v))
		}
		return f(v)
	case []*Rows:
		if assoc {
			rows := make([]*AssociativeRows, len(v))
			for j := range v {
				rows[j] = associative(v[j])
			}
			return f(rows)
		}
		return f(v)
	default:
		return f(v)
	}
}
