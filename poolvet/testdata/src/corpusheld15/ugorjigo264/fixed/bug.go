// Package fixed is the twin of ../bug for ugorji/go#264
// (https://github.com/ugorji/go/issues/264): the pooled value is zeroed
// before it is decoded into, so nothing of the previous request survives.
package fixed

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
	defer habilitationPool.Put(h)
	*h = Habilitation{}
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
