// Package fixed is a fixed twin of alibaba/sentinel-golang#149
// (https://github.com/alibaba/sentinel-golang/issues/144): the result is
// read before it is refurbished.
package fixed

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
		isBlocked := r != nil && r.IsBlocked()
		RefurbishTokenResult(r)
		if isBlocked {
			return true
		}
	}
	return false
}
