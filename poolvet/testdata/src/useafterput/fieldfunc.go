package useafterput

import (
	"math/big"
	"sync"
	"unsafe"
)

type quoteBuf struct{ B []byte }

var quotePool = sync.Pool{New: func() any { return &quoteBuf{B: make([]byte, 0, 64)} }}

func getQuote() *quoteBuf { return quotePool.Get().(*quoteBuf) }

func putQuote(b *quoteBuf) {
	if cap(b.B) > 64<<10 {
		return
	}
	b.B = b.B[:0]
	quotePool.Put(b)
}

// An app whose byte-to-string conversion, a func-typed field, copies in one
// configuration and is an unsafe view in the other (gofiber/fiber#4374).
type quoteApp struct {
	toString func([]byte) string
}

func newQuoteApp(immutable bool) *quoteApp {
	a := &quoteApp{}
	if immutable {
		a.toString = func(b []byte) string { return string(b) }
	} else {
		a.toString = func(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
	}
	return a
}

// appendEscaped returns dst grown by appends in a loop: a view of dst.
func appendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			dst = append(dst, '\\')
		}
		dst = append(dst, s[i])
	}
	return dst
}

func (a *quoteApp) quote(s string) string {
	bb := getQuote()
	q := a.toString(appendEscaped(bb.B, s))
	putQuote(bb)
	return q // want `bb is used after it was put back into the pool`
}

func (a *quoteApp) quoteDeferred(s string) string {
	bb := getQuote()
	defer putQuote(bb)
	bb.B = appendEscaped(bb.B, s)
	return a.toString(bb.B) // want `returned value shares memory with bb`
}

// Silent: a field that only ever holds a copying function.
type copyApp struct {
	toString func([]byte) string
}

func newCopyApp() *copyApp {
	return &copyApp{toString: func(b []byte) string { return string(b) }}
}

func (a *copyApp) quote(s string) string {
	bb := getQuote()
	defer putQuote(bb)
	bb.B = appendEscaped(bb.B, s)
	return a.toString(bb.B)
}

// A math/big method returns its receiver: the product is the pooled
// integer, kept in a slice past its Put (IBM/TSS#27).
var intPool = sync.Pool{New: func() any { return new(big.Int) }}

func products(xs []int64, m *big.Int) *big.Int {
	var ps []*big.Int
	for _, x := range xs {
		j := intPool.Get().(*big.Int).SetInt64(x)
		p := j.Mul(j, m)
		ps = append(ps, p)
		intPool.Put(j)
	}
	sum := new(big.Int)
	for _, p := range ps { // want `j is used after it was put back into the pool`
		sum.Add(sum, p)
	}
	return sum
}

// Silent: the product is a new integer.
func products2(xs []int64, m *big.Int) *big.Int {
	var ps []*big.Int
	for _, x := range xs {
		j := intPool.Get().(*big.Int).SetInt64(x)
		ps = append(ps, new(big.Int).Mul(j, m))
		intPool.Put(j)
	}
	sum := new(big.Int)
	for _, p := range ps {
		sum.Add(sum, p)
	}
	return sum
}
