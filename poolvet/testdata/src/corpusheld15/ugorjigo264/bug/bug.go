// Package bug reproduces the shape of ugorji/go#264
// (https://github.com/ugorji/go/issues/264): a service decoded each request
// into a Habilitation value taken from a sync.Pool. Decoding updates the
// target in place: the Limits elements and their Values maps left by the
// previous request were reused and merged with the new input, so one
// request's limits showed up in the next. The fix is to zero the pooled
// value before decoding into it (the codec also grew an option for it); the
// minimal package uses encoding/json, which reuses slice elements and maps
// the same way.
//
// Check: noreset (pooled struct decoded into, then put back, never reset)
package bug

import (
	"encoding/json"
	"io"
	"sync"
)

type Limit struct {
	Values map[string]float64 `json:"values"`
}

type Habilitation struct {
	Limits []Limit `json:"limits"`
}

var habilitationPool = sync.Pool{
	New: func() any { return new(Habilitation) },
}

// maxLimit decodes one request body and returns the largest limit for key.
func maxLimit(body io.Reader, key string) (float64, error) {
	h := habilitationPool.Get().(*Habilitation)
	defer habilitationPool.Put(h) // want `noreset`
	if err := json.NewDecoder(body).Decode(h); err != nil {
		return 0, err
	}
	var best float64
	for _, l := range h.Limits {
		if v, ok := l.Values[key]; ok && v > best {
			best = v
		}
	}
	return best, nil
}
