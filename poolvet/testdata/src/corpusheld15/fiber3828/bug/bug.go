// Package bug reproduces the shape of gofiber/fiber#3828
// (https://github.com/gofiber/fiber/pull/3828): fiber hands out strings
// that point into pooled request memory (zero-allocation values), and its
// internal memory storage used such a string as a map key without copying
// it. Once the request context went back to its pool and was reused, the
// stored key changed under the map: CSRF and session ids were not found,
// or found with another request's bytes.
//
// Check: useafterput (retention: the storage map keeps a zero-copy view of
// the pooled context's memory, then the context is put back).
package bug

import (
	"sync"
	"unsafe"
)

const maxCookie = 256

// Ctx is the pooled per-request context.
type Ctx struct {
	cookie [maxCookie]byte
	n      int
}

func (c *Ctx) reset(cookie string) {
	c.n = copy(c.cookie[:], cookie)
}

// Cookie returns the cookie value without copying it: it is only valid
// until the handler returns.
func (c *Ctx) Cookie() string {
	if c.n == 0 {
		return ""
	}
	return unsafe.String(&c.cookie[0], c.n)
}

type entry struct {
	data []byte
	exp  int64
}

// Storage is the in-memory storage used by the CSRF and session middleware.
type Storage struct {
	mu   sync.RWMutex
	data map[string]entry
}

func (s *Storage) Set(key string, val []byte, exp int64) {
	s.mu.Lock()
	s.data[key] = entry{data: val, exp: exp}
	s.mu.Unlock()
}

func (s *Storage) Get(key string) []byte {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data[key].data
}

var memory = &Storage{data: make(map[string]entry)}

var ctxPool = sync.Pool{New: func() any { return new(Ctx) }}

// csrfHandler remembers the token issued for this session cookie.
func csrfHandler(c *Ctx, token []byte, exp int64) {
	memory.Set(c.Cookie(), token, exp)
}

func Serve(cookie string, token []byte, exp int64) {
	c := ctxPool.Get().(*Ctx)
	c.reset(cookie)

	csrfHandler(c, token, exp)

	ctxPool.Put(c) // want `useafterput`
}
