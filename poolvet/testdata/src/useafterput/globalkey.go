package useafterput

import (
	"strings"
	"sync"
	"unsafe"
)

// A zero-copy string over the pooled context's bytes kept as a key of a
// package-level map, directly, through a method of a package-level value,
// or through a helper (gofiber/fiber#3828).
type reqCtx struct {
	cookie [64]byte
	n      int
}

func (c *reqCtx) Cookie() string { return unsafe.String(&c.cookie[0], c.n) } // want Cookie:`pool:alias`

type store struct {
	mu   sync.Mutex
	data map[string][]byte
}

func (s *store) Set(key string, v []byte) {
	s.mu.Lock()
	s.data[key] = v
	s.mu.Unlock()
}

var sessions = &store{data: map[string][]byte{}}

var tokens = map[string][]byte{}

var reqPool = sync.Pool{New: func() any { return new(reqCtx) }}

func keepSession(c *reqCtx, tok []byte) { sessions.Set(c.Cookie(), tok) }

func serveDirect(tok []byte) {
	c := reqPool.Get().(*reqCtx)
	tokens[c.Cookie()] = tok
	reqPool.Put(c) // want `c is put back into the pool while package-level tokens \(stored there at line 40\) may still use it`
}

func serveMethod(tok []byte) {
	c := reqPool.Get().(*reqCtx)
	sessions.Set(c.Cookie(), tok)
	reqPool.Put(c) // want `c is put back into the pool while package-level sessions \(kept there by the call at line 46\) may still use it`
}

func serveHelper(tok []byte) {
	c := reqPool.Get().(*reqCtx)
	keepSession(c, tok)
	reqPool.Put(c) // want `c is put back into the pool while the user that keepSession passes it on to \(called at line 52\) may still use it`
}

// Silent: the key is copied first.
func rememberFixed(c *reqCtx, tok []byte) { sessions.Set(strings.Clone(c.Cookie()), tok) }

func serveFixed(tok []byte) {
	c := reqPool.Get().(*reqCtx)
	rememberFixed(c, tok)
	tokens[strings.Clone(c.Cookie())] = tok
	reqPool.Put(c)
}
