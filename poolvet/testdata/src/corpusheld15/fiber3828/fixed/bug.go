// Package fixed is the fix of gofiber/fiber#3828
// (https://github.com/gofiber/fiber/pull/3828): the storage copies the key
// and the value before keeping them, so nothing in the map points into the
// pooled context when it goes back to its pool.
package fixed

import (
	"bytes"
	"strings"
	"sync"
	"unsafe"
)

const maxCookie = 256

type Ctx struct {
	cookie [maxCookie]byte
	n      int
}

func (c *Ctx) reset(cookie string) {
	c.n = copy(c.cookie[:], cookie)
}

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

type Storage struct {
	mu   sync.RWMutex
	data map[string]entry
}

// Set stores copies: the caller's key and value may live in pooled memory.
func (s *Storage) Set(key string, val []byte, exp int64) {
	k := strings.Clone(key)
	v := bytes.Clone(val)
	s.mu.Lock()
	s.data[k] = entry{data: v, exp: exp}
	s.mu.Unlock()
}

func (s *Storage) Get(key string) []byte {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return bytes.Clone(s.data[key].data)
}

var memory = &Storage{data: make(map[string]entry)}

var ctxPool = sync.Pool{New: func() any { return new(Ctx) }}

func csrfHandler(c *Ctx, token []byte, exp int64) {
	memory.Set(c.Cookie(), token, exp)
}

func Serve(cookie string, token []byte, exp int64) {
	c := ctxPool.Get().(*Ctx)
	c.reset(cookie)

	csrfHandler(c, token, exp)

	ctxPool.Put(c)
}
