package noreset

import "sync"

// A pooled []string holder truncated without clearing: the strings past
// the new length keep every value a previous user put in it alive
// (redis/rueidis#312).
type commandSlice struct {
	s []string
}

var commandPool = &sync.Pool{New: func() any { return &commandSlice{s: make([]string, 0, 2)} }}

func putCommand(cs *commandSlice) {
	cs.s = cs.s[:0]
	commandPool.Put(cs) // want `cs goes back to the pool with s truncated but its elements not cleared`
}

func newCommand(tokens ...string) *commandSlice {
	cs := commandPool.Get().(*commandSlice)
	cs.s = append(cs.s, tokens...)
	return cs
}

// The fix: the strings are cleared first.
type clearedSlice struct {
	s []string
}

var clearedPool = &sync.Pool{New: func() any { return &clearedSlice{s: make([]string, 0, 2)} }}

func putCleared(cs *clearedSlice) {
	clear(cs.s)
	cs.s = cs.s[:0]
	clearedPool.Put(cs)
}

func newCleared(tokens ...string) *clearedSlice {
	cs := clearedPool.Get().(*clearedSlice)
	cs.s = append(cs.s, tokens...)
	return cs
}
