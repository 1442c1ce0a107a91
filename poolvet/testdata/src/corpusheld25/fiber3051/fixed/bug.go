// Package bug reproduces the shape of gofiber/fiber#3051
// (https://github.com/gofiber/fiber/pull/3051, "fix(middleware/session): fix
// data-race with sync.Pool"): Session.Save locked the session mutex and
// deferred the unlock, stored the encoded data, and then released the session
// into sessionPool as its last step. The deferred s.mu.Unlock therefore ran on
// a session that was already back in the pool, possibly handed to another
// request by acquireSession and being locked/filled there: a data race on the
// pooled object (and an unlock of somebody else's lock). The fix unlocks
// explicitly before releaseSession, and releaseSession clears the fields
// under the lock.
//
// This is the fixed twin: Save unlocks before releasing, and releaseSession
// clears the session under its lock.
//
// Check: useafterput (fixed twin, no report expected).
package bug

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"sync"
	"time"
)

const maxPooledBufferSize = 64 * 1024

// Storage persists encoded sessions.
type Storage interface {
	Set(key string, val []byte, exp time.Duration) error
}

// Store is the session middleware configuration.
type Store struct {
	Storage    Storage
	Expiration time.Duration
}

type data struct {
	sync.RWMutex
	Data map[string]any
}

func (d *data) Reset() {
	d.Lock()
	clear(d.Data)
	d.Unlock()
}

// Session is one request's session, taken from sessionPool.
type Session struct {
	mu         sync.RWMutex
	id         string
	fresh      bool
	config     *Store
	data       *data
	byteBuffer *bytes.Buffer
	exp        time.Duration
}

var sessionPool = sync.Pool{New: func() any { return new(Session) }}

func acquireSession() *Session {
	s := sessionPool.Get().(*Session)
	if s.data == nil {
		s.data = &data{Data: make(map[string]any)}
	}
	if s.byteBuffer == nil {
		s.byteBuffer = new(bytes.Buffer)
	}
	s.fresh = true
	return s
}

func releaseSession(s *Session) {
	s.mu.Lock()
	s.id = ""
	s.exp = 0
	s.fresh = false
	s.config = nil
	if s.data != nil {
		s.data.Reset()
	}
	if s.byteBuffer != nil {
		if s.byteBuffer.Cap() > maxPooledBufferSize {
			s.byteBuffer = nil
		} else {
			s.byteBuffer.Reset()
		}
	}
	s.mu.Unlock()
	sessionPool.Put(s)
}

// Get returns the session for id.
func (st *Store) Get(id string) *Session {
	sess := acquireSession()
	sess.mu.Lock()
	sess.config = st
	sess.id = id
	sess.mu.Unlock()
	return sess
}

// Set stores a value in the session.
func (s *Session) Set(key string, val any) {
	s.data.Lock()
	s.data.Data[key] = val
	s.data.Unlock()
}

// Save updates the storage and releases the session.
func (s *Session) Save() error {
	if s.data == nil {
		return nil
	}

	s.mu.Lock()

	if s.exp <= 0 {
		s.exp = s.config.Expiration
	}

	enc := gob.NewEncoder(s.byteBuffer)
	if err := enc.Encode(&s.data.Data); err != nil {
		s.mu.Unlock()
		return fmt.Errorf("failed to encode data: %w", err)
	}

	encodedBytes := make([]byte, s.byteBuffer.Len())
	copy(encodedBytes, s.byteBuffer.Bytes())

	if err := s.config.Storage.Set(s.id, encodedBytes, s.exp); err != nil {
		s.mu.Unlock()
		return err
	}

	s.mu.Unlock()

	// Release session
	releaseSession(s)

	return nil
}
