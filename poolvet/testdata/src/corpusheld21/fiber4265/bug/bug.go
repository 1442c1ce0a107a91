// Package bug reproduces the shape of gofiber/fiber#4265
// (https://github.com/gofiber/fiber/pull/4265, "fix session logger tag panic"):
// the session middleware takes a *Middleware from middlewarePool, stores it in
// the request context (StoreInContext) so handlers and the logger's
// ${session-id} tag can find it, runs the rest of the chain and then calls
// releaseMiddleware, which clears it and puts it back to the pool. The context
// entry is not removed. A logger registered *outside* the session middleware
// formats its line after c.Next() returns, so the session-id tag fetches the
// already-released Middleware from the context and calls m.ID() on it: a nil
// Session panic, or another request's session ID once the object is reused.
// The fix stores the session ID string in the context for the tag and clears
// the context entries in releaseMiddleware before the Put.
// Check: useafterput (the pooled Middleware, kept in the request context, is
// used by the logger tag after releaseMiddleware put it back; report at the
// use).
package bug

import (
	"fmt"
	"io"
	"strings"
	"sync"
)

// ---- minimal fiber ----

type Handler func(c *Ctx) error

type Ctx struct {
	handlers []Handler
	index    int
	locals   map[any]any
}

func (c *Ctx) Next() error {
	c.index++
	if c.index < len(c.handlers) {
		return c.handlers[c.index](c)
	}
	return nil
}

func StoreInContext(c *Ctx, key, val any) {
	if c.locals == nil {
		c.locals = make(map[any]any)
	}
	c.locals[key] = val
}

func ValueFromContext[T any](c *Ctx, key any) (T, bool) {
	v, ok := c.locals[key].(T)
	return v, ok
}

func Serve(c *Ctx, chain ...Handler) error {
	c.handlers = chain
	c.index = 0
	return chain[0](c)
}

// ---- logger middleware with context tags ----

var contextTags = map[string]func(c *Ctx) string{}

func RegisterContextTag(name string, fn func(c *Ctx) string) { contextTags[name] = fn }

func NewLogger(w io.Writer, tag string) Handler {
	return func(c *Ctx) error {
		err := c.Next()
		if fn, ok := contextTags[tag]; ok {
			fmt.Fprintf(w, "%s=%s\n", tag, fn(c))
		}
		return err
	}
}

// ---- session middleware ----

type Session struct {
	id   string
	data map[string]any
}

func (s *Session) ID() string { return s.id }

type Store struct {
	mu   sync.Mutex
	next int
}

func (s *Store) getSession(c *Ctx) (*Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	return &Session{id: fmt.Sprintf("sess-%08d", s.next), data: map[string]any{}}, nil
}

type Config struct {
	Store *Store
}

type Middleware struct {
	config    Config
	Session   *Session
	ctx       *Ctx
	mu        sync.RWMutex
	destroyed bool
}

type contextKey int

const middlewareContextKey contextKey = 0

var middlewarePool = &sync.Pool{New: func() any { return &Middleware{} }}

func acquireMiddleware() *Middleware {
	return middlewarePool.Get().(*Middleware)
}

func releaseMiddleware(m *Middleware) {
	m.mu.Lock()
	m.config = Config{}
	m.Session = nil
	m.ctx = nil
	m.destroyed = false
	m.mu.Unlock()
	middlewarePool.Put(m)
}

func (m *Middleware) initialize(c *Ctx, cfg *Config) {
	m.mu.Lock()
	defer m.mu.Unlock()

	session, err := cfg.Store.getSession(c)
	if err != nil {
		panic(err)
	}

	m.config = *cfg
	m.Session = session
	m.ctx = c

	StoreInContext(c, middlewareContextKey, m)
}

func (m *Middleware) saveSession() {}

// ID returns the session ID.
func (m *Middleware) ID() string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.Session.ID()
}

func FromContext(c *Ctx) *Middleware {
	if m, ok := ValueFromContext[*Middleware](c, middlewareContextKey); ok {
		return m
	}
	return nil
}

func redactPrefix(id string) string {
	if len(id) <= 4 {
		return strings.Repeat("*", len(id))
	}
	return id[:4] + strings.Repeat("*", len(id)-4)
}

var registerLogContextTagsOnce sync.Once

func registerLogContextTags() {
	RegisterContextTag("session-id", func(c *Ctx) string {
		m := FromContext(c)
		if m == nil {
			return ""
		}
		return redactPrefix(m.ID()) // want `useafterput`
	})
}

func NewSession(cfg Config) Handler {
	registerLogContextTagsOnce.Do(registerLogContextTags)
	if cfg.Store == nil {
		cfg.Store = &Store{}
	}

	return func(c *Ctx) error {
		m := acquireMiddleware()
		m.initialize(c, &cfg)

		stackErr := c.Next()

		m.mu.RLock()
		destroyed := m.destroyed
		m.mu.RUnlock()

		if !destroyed {
			m.saveSession()
		}

		releaseMiddleware(m)
		return stackErr
	}
}
