// Package fixed is pquerna/ffjson#195 with the fix's effect: fields absent
// from the input are zero after decoding (here by zeroing the pooled object
// before each decode).
package fixed

import (
	"encoding/json"
	"sync"
)

type M struct {
	Y []int
}

type A struct {
	I int
	T *M
}

type B struct {
	X int
	Z *A    `json:"Z,omitempty"`
	Y int   `json:"Y,omitempty"`
	K []int `json:"K,omitempty"`
}

var bPool = sync.Pool{New: func() any { return new(B) }}

type Summary struct {
	X, Y, NK int
	HasZ     bool
}

// Summarize decodes one message and reports what it contained.
func Summarize(data []byte) (Summary, error) {
	b := bPool.Get().(*B)
	*b = B{}
	if err := json.Unmarshal(data, b); err != nil {
		bPool.Put(b)
		return Summary{}, err
	}
	s := Summary{X: b.X, Y: b.Y, NK: len(b.K), HasZ: b.Z != nil}
	bPool.Put(b)
	return s, nil
}
