// Package bug is the fixed twin of gofiber/fiber#4265
// (https://github.com/gofiber/fiber/pull/4265): the session ID string is
// stored in the request context for the logger tag, and releaseMiddleware
// clears the context entries that point at the Middleware before putting it
// back, so nothing reaches the pooled object after the Put.
// Check: useafterput (clean).
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

const (
	middlewareContextKey contextKey = iota
	sessionIDContextKey
)

var middlewarePool = &sync.Pool{New: func() any { return &Middleware{} }}

func acquireMiddleware() *Middleware {
	return middlewarePool.Get().(*Middleware)
}

func releaseMiddleware(m *Middleware) {
	m.mu.Lock()
	if m.ctx != nil {
		StoreInContext(m.ctx, sessionIDContextKey, "")
		StoreInContext(m.ctx, middlewareContextKey, (*Middleware)(nil))
	}
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

	StoreInContext(c, sessionIDContextKey, session.ID())
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
	if m, ok := ValueFromContext[*Middleware](c, middlewareContextKey); ok && m != nil {
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
		id, ok := ValueFromContext[string](c, sessionIDContextKey)
		if !ok || id == "" {
			return ""
		}
		return redactPrefix(id)
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
