// Package bug reproduces the shape of pquerna/ffjson#195
// (https://github.com/pquerna/ffjson/pull/195): objects reused through a
// sync.Pool were unmarshalled into again, and decoding only sets the fields
// present in the input. A message without "Z" or "Y" came out with the
// previous message's Z and Y (the PR's example: {"X":1,"K":[1,2,3]} decoded
// into an object that had held {"X":1,"Z":{...},"Y":4,...}).
//
// Check: noreset (decode into a pooled struct that nothing resets, then Put).
// The generated ffjson decoder is replaced by encoding/json, which merges the
// same way.
package bug

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
	if err := json.Unmarshal(data, b); err != nil {
		bPool.Put(b) // want `noreset`
		return Summary{}, err
	}
	s := Summary{X: b.X, Y: b.Y, NK: len(b.K), HasZ: b.Z != nil}
	bPool.Put(b) // want `noreset`
	return s, nil
}
