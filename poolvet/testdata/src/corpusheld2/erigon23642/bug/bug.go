// Package bug reproduces the shape of erigontech/erigon#23642 (https://github.com/erigontech/erigon/pull/23642): among pooled objects put back with pointers still set, the beacon API's responseValidators reset its pooled strings.Builder on checkout instead of on return, so every builder parked in the pool kept a whole validators response alive until its next use. The fix resets (and clears) pooled objects on the way back into the pool.
//
// Check: noreset (strings.Builder put back still holding the previous response).
package bug

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
	if sb.Cap() <= 1<<20 {
		builderPool.Put(sb) // want `noreset|not reset|stale`
	}
	return out
}
