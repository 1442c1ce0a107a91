// Package bug reproduces the shape of the data race reported in
// alibaba/sentinel-golang#144 and fixed by #149
// (https://github.com/alibaba/sentinel-golang/issues/144): after pooled
// TokenResults were introduced (#142), the slot chain used a TokenResult
// after "refurbishing" it, i.e. after it had been reset and put back into
// the pool.
//
// Check: useafterput (through the refurbish wrapper).
package bug

import "sync"

type TokenResultStatus int

const (
	ResultStatusPass TokenResultStatus = iota
	ResultStatusBlocked
)

type TokenResult struct {
	status    TokenResultStatus
	blockType string
}

func (r *TokenResult) IsBlocked() bool { return r.status == ResultStatusBlocked }

var tokenResultPool = sync.Pool{New: func() any { return new(TokenResult) }}

func NewTokenResultPass() *TokenResult {
	r := tokenResultPool.Get().(*TokenResult)
	r.status = ResultStatusPass
	return r
}

// RefurbishTokenResult resets the result and gives it back to the pool.
func RefurbishTokenResult(r *TokenResult) {
	if r != nil {
		*r = TokenResult{}
		tokenResultPool.Put(r)
	}
}

type checker func() *TokenResult

type SlotChain struct{ checkers []checker }

func (s *SlotChain) Check() (blocked bool) {
	for _, c := range s.checkers {
		r := c()
		RefurbishTokenResult(r)
		if r.IsBlocked() { // want `used after|useafterput`
			return true
		}
	}
	return false
}
