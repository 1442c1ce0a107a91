package useafterput

import (
	"errors"
	"sync"
)

// A deferred call that uses the object, registered before a Put that runs
// on the way to the return: it runs after the Put (gofiber/fiber#3051,
// cockroachdb/pebble 423ba082d).

type sessState struct {
	mu   sync.Mutex
	id   string
	data map[string]string
}

var sessStatePool = sync.Pool{New: func() any { return &sessState{data: map[string]string{}} }}

func releaseSessState(s *sessState) {
	s.id = ""
	clear(s.data)
	sessStatePool.Put(s)
}

func (s *sessState) save(store map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock() // want `useafterput`
	for k, v := range s.data {
		store[s.id+k] = v
	}
	releaseSessState(s)
}

func (s *sessState) saveUnlockFirst(store map[string]string) {
	s.mu.Lock()
	for k, v := range s.data {
		store[s.id+k] = v
	}
	s.mu.Unlock()
	releaseSessState(s)
}

func (s *sessState) saveReleaseDeferred(store map[string]string) {
	defer releaseSessState(s)
	s.mu.Lock()
	defer s.mu.Unlock() // runs before the deferred release
	for k, v := range s.data {
		store[s.id+k] = v
	}
}

type blobWriter struct {
	out  []byte
	err  error
	done bool
}

var blobWriterPool = sync.Pool{New: func() any { return new(blobWriter) }}

func (w *blobWriter) close() error {
	defer func() {
		if !w.done { // want `useafterput`
			w.err = errBlobClosed
		}
	}()
	if len(w.out) > 1<<20 {
		w.out = nil
	}
	w.out = w.out[:0]
	w.err = nil
	blobWriterPool.Put(w)
	return nil
}

func (w *blobWriter) closeRecovering() (err error) {
	defer func() {
		if r := recover(); r != nil {
			w.out = nil
			blobWriterPool.Put(w)
		}
	}()
	w.out = w.out[:0]
	return w.err
}

var errBlobClosed = errors.New("closed")

// closeOrRecover puts the writer itself on a panic: the deferred closure is
// the other Put of a pair, not a use.
func (w *blobWriter) closeOrRecover() {
	defer func() {
		if r := recover(); r != nil {
			blobWriterPool.Put(w)
			panic(r)
		}
	}()
	w.out = w.out[:0]
	blobWriterPool.Put(w)
}
