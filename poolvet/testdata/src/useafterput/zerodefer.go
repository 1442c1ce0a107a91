package useafterput

import "sync"

// A field's slice returned past a deferred Put: reported, unless the
// deferred closure zeroes the whole object before the Put, which then holds
// none of that memory (zalando/skipper#3516's fix).
type zlexer struct {
	code   string
	tokens []string
}

var zlexerPool = sync.Pool{New: func() any { return new(zlexer) }}

func (l *zlexer) run() {
	for i := 0; i < len(l.code); i++ {
		l.tokens = append(l.tokens, l.code[i:i+1])
	}
}

func tokensDeferred(code string) []string {
	l := zlexerPool.Get().(*zlexer)
	defer zlexerPool.Put(l)
	l.code, l.tokens = code, l.tokens[:0]
	l.run()
	return l.tokens // want `returned value shares memory with l`
}

func tokensZeroed(code string) []string {
	l := zlexerPool.Get().(*zlexer)
	defer func() {
		*l = zlexer{}
		zlexerPool.Put(l)
	}()
	l.code = code
	l.run()
	return l.tokens
}

// Zeroing something else does not count.
func tokensOtherZeroed(code string) []string {
	l := zlexerPool.Get().(*zlexer)
	other := new(zlexer)
	defer func() {
		*other = zlexer{}
		zlexerPool.Put(l)
	}()
	l.code, l.tokens = code, l.tokens[:0]
	l.run()
	return l.tokens // want `returned value shares memory with l`
}
