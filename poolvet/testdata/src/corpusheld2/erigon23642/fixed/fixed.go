// Package fixed is the repaired twin of erigontech/erigon#23642 (https://github.com/erigontech/erigon/pull/23642): the builder is reset on return, so the pool no longer pins the previous response.
package fixed

import (
	"strconv"
	"strings"
	"sync"
)

// Validator is one entry of the response.
type Validator struct {
	Index   uint64
	Balance uint64
}

var builderPool = sync.Pool{New: func() any { return new(strings.Builder) }}

// ValidatorsJSON renders vals as a JSON array.
func ValidatorsJSON(vals []Validator) string {
	sb := builderPool.Get().(*strings.Builder)
	sb.Reset()
	sb.WriteByte('[')
	for i, v := range vals {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"index":`)
		sb.WriteString(strconv.FormatUint(v.Index, 10))
		sb.WriteString(`,"balance":`)
		sb.WriteString(strconv.FormatUint(v.Balance, 10))
		sb.WriteByte('}')
	}
	sb.WriteByte(']')
	out := sb.String()
	sb.Reset()
	builderPool.Put(sb)
	return out
}
