// Package fixed is the fixed twin of the shape of a double release fixed in
// gofiber/fiber#4435 (https://github.com/gofiber/fiber/pull/4435, commit
// 73487e126 "fix(session): address WithContext review feedback": "Remove
// the double-release of the pooled *Session in Test_Session_SaveWithContext
// (fixes the -race flake ...)"). The code took a session from the store,
// deferred sess.Release(), saved it, and then released it explicitly before
// loading a second session with the same ID, so the same *Session went back
// to sessionPool twice and a later Get could hand it to two users.
//
// Check: doubleput (an explicit Release on top of a deferred Release of the
// same session). The want is at the explicit Release, as for other
// "explicit Put on top of a deferred Put" cases.
package fixed

import (
	"context"
	"errors"
	"sync"
)

type Session struct {
	mu      sync.RWMutex
	id      string
	data    map[string]any
	isFresh bool
	store   *Store
}

var sessionPool = sync.Pool{New: func() any { return &Session{} }}

func acquireSession() *Session {
	s := sessionPool.Get().(*Session)
	if s.data == nil {
		s.data = make(map[string]any)
	}
	s.isFresh = true
	return s
}

func releaseSession(s *Session) {
	s.mu.Lock()
	s.id = ""
	s.isFresh = false
	s.store = nil
	clear(s.data)
	s.mu.Unlock()
	sessionPool.Put(s)
}

// Release returns the session to the pool; it must not be used afterwards.
func (s *Session) Release() {
	if s == nil {
		return
	}
	releaseSession(s)
}

func (s *Session) ID() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.id
}

func (s *Session) Set(k string, v any) {
	s.mu.Lock()
	s.data[k] = v
	s.mu.Unlock()
}

func (s *Session) Get(k string) any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data[k]
}

func (s *Session) SaveWithContext(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	saved := make(map[string]any, len(s.data))
	for k, v := range s.data {
		saved[k] = v
	}
	s.store.mu.Lock()
	s.store.saved[s.id] = saved
	s.store.mu.Unlock()
	return nil
}

type Store struct {
	mu     sync.Mutex
	saved  map[string]map[string]any
	nextID int
}

func NewStore() *Store { return &Store{saved: make(map[string]map[string]any)} }

var errNoStore = errors.New("no store")

// Get returns the session named by cookie, or a fresh one when cookie is
// empty or unknown.
func (st *Store) Get(cookie string) (*Session, error) {
	if st == nil {
		return nil, errNoStore
	}
	s := acquireSession()
	s.store = st
	st.mu.Lock()
	defer st.mu.Unlock()
	if data, ok := st.saved[cookie]; ok && cookie != "" {
		s.id = cookie
		s.isFresh = false
		for k, v := range data {
			s.data[k] = v
		}
		return s, nil
	}
	st.nextID++
	s.id = string(rune('a'+st.nextID%26)) + "-session"
	return s, nil
}

// SaveAndReload saves a value in a fresh session and reads it back through a
// second session loaded by ID.
func SaveAndReload(ctx context.Context, store *Store, name string) (any, error) {
	sess, err := store.Get("")
	if err != nil {
		return nil, err
	}

	sess.Set("name", name)
	if err := sess.SaveWithContext(ctx); err != nil {
		sess.Release()
		return nil, err
	}

	savedID := sess.ID()
	sess.Release()

	sess2, err := store.Get(savedID)
	if err != nil {
		return nil, err
	}
	defer sess2.Release()

	return sess2.Get("name"), nil
}
