package useafterput

import (
	"errors"
	"sync"
)

// With a defer in the function, results go through local slots: the
// `return nil, err` after a Put clears the slot that holds the object on
// the other path, which is not a use of it (gofiber/fiber 73487e1's fix).
type slotSession struct {
	id string
}

var slotSessionPool = sync.Pool{New: func() any { return new(slotSession) }}

func loadSession(known map[string]bool, id string, mu *sync.Mutex) (*slotSession, error) {
	s := slotSessionPool.Get().(*slotSession)
	mu.Lock()
	defer mu.Unlock()
	if !known[id] {
		s.id = ""
		slotSessionPool.Put(s)
		return nil, errors.New("session not found")
	}
	s.id = id
	return s, nil
}

// A write into the object after its Put is still a use.
func loadSessionLate(known map[string]bool, id string, mu *sync.Mutex) (*slotSession, error) {
	s := slotSessionPool.Get().(*slotSession)
	mu.Lock()
	defer mu.Unlock()
	if !known[id] {
		slotSessionPool.Put(s)
		s.id = "" // want `s is used after it was put back into the pool`
		return nil, errors.New("session not found")
	}
	s.id = id
	return s, nil
}
