// Package bug reproduces the shape of gofiber/fiber commit 73487e1
// (https://github.com/gofiber/fiber/commit/73487e126c286b6d2296f6349a483f8b79567364,
// "fix(session): address WithContext review feedback": "Remove the
// double-release of the pooled *Session in Test_Session_SaveWithContext").
// The save-then-reload sequence registered `defer sess.Release()` and later
// released the same session explicitly before fetching a second one, so the
// pooled session went back to sync.Pool twice (a -race flake).
//
// Check: doubleput (an explicit Release wrapper on top of a deferred one; the
// report is expected at the explicit call, as the docs do for the explicit
// one of a deferred/explicit pair).
package bug

import (
	"context"
	"errors"
	"sync"
)

type data struct {
	m map[string]any
}

func (d *data) Reset() { clear(d.m) }

// Session is a pooled session.
type Session struct {
	mu      sync.RWMutex
	id      string
	isFresh bool
	data    *data
	store   *Store
}

var sessionPool = sync.Pool{
	New: func() any { return &Session{} },
}

func acquireSession() *Session {
	s := sessionPool.Get().(*Session)
	if s.data == nil {
		s.data = &data{m: map[string]any{}}
	}
	s.isFresh = true
	return s
}

// Release gives the session back to the pool; it must not be used afterwards.
func (s *Session) Release() {
	if s == nil {
		return
	}
	releaseSession(s)
}

func releaseSession(s *Session) {
	s.mu.Lock()
	s.id = ""
	s.store = nil
	s.data.Reset()
	s.mu.Unlock()
	sessionPool.Put(s)
}

func (s *Session) ID() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.id
}

func (s *Session) Set(k string, v any) {
	s.mu.Lock()
	s.data.m[k] = v
	s.mu.Unlock()
}

func (s *Session) Get(k string) any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data.m[k]
}

// SaveWithContext stores the session's data under its id.
func (s *Session) SaveWithContext(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	saved := make(map[string]any, len(s.data.m))
	for k, v := range s.data.m {
		saved[k] = v
	}
	s.store.mu.Lock()
	s.store.saved[s.id] = saved
	s.store.mu.Unlock()
	return nil
}

// Store hands out sessions by id.
type Store struct {
	mu    sync.Mutex
	saved map[string]map[string]any
	next  int
}

func NewStore() *Store { return &Store{saved: map[string]map[string]any{}} }

// Get returns the session for id, or a fresh one when id is empty.
func (st *Store) Get(id string) (*Session, error) {
	s := acquireSession()
	s.store = st
	st.mu.Lock()
	defer st.mu.Unlock()
	if id == "" {
		st.next++
		s.id = string(rune('a' + st.next%26))
		return s, nil
	}
	m, ok := st.saved[id]
	if !ok {
		s.Release()
		return nil, errors.New("session not found")
	}
	s.id = id
	s.isFresh = false
	for k, v := range m {
		s.data.m[k] = v
	}
	return s, nil
}

// SaveAndReload saves a value in a new session and reads it back through a
// second session with the same id.
func SaveAndReload(ctx context.Context, st *Store, name string) (any, error) {
	sess, err := st.Get("")
	if err != nil {
		return nil, err
	}
	defer sess.Release()

	sess.Set("name", name)
	if err := sess.SaveWithContext(ctx); err != nil {
		return nil, err
	}

	savedID := sess.ID()
	sess.Release() // want `doubleput`

	sess2, err := st.Get(savedID)
	if err != nil {
		return nil, err
	}
	defer sess2.Release()
	return sess2.Get("name"), nil
}
