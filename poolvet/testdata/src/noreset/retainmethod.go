package noreset

import "sync"

// A Get helper that points the pooled iterator at the caller's input
// through a method (iter.resetBytes(data)), and a Put helper that does not
// drop it: the idle iterator pins the last input (json-iterator/go#387).
// The pool is a *sync.Pool field of a config.
type iterConfig struct{ iters *sync.Pool }

type iterator struct {
	buf  []byte
	head int
	err  error
}

func (it *iterator) resetBytes(in []byte) *iterator {
	it.buf = in
	it.head = 0
	return it
}

func (cfg *iterConfig) borrow(data []byte) *iterator {
	it := cfg.iters.Get().(*iterator)
	it.resetBytes(data)
	return it
}

func (cfg *iterConfig) giveBack(it *iterator) {
	it.err = nil
	cfg.iters.Put(it) // want `it goes back to the pool still holding, in field buf \(set by resetBytes\)`
}

// Silent: the Put helper points it at nothing first.
type iterConfig2 struct{ iters *sync.Pool }

func (cfg *iterConfig2) borrow(data []byte) *iterator {
	it := cfg.iters.Get().(*iterator)
	it.resetBytes(data)
	return it
}

func (cfg *iterConfig2) giveBack(it *iterator) {
	it.resetBytes(nil)
	cfg.iters.Put(it)
}
