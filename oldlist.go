package pool

import (
	"unsafe"
	"weak"
)

// oldList is a shard's victim list: the objects that were in its shared list
// at the last trim. Gets still take from it (under the shard's mutex).
//
// In pools that never need to read what they release (no MinIdle, no debug
// mode), the list's backing array is held only through a weak pointer, so
// the next GC cycle collects whatever is still in it. That is the lifetime
// of sync.Pool's victim cache: without it, objects released by the trimmer,
// which runs after a cycle rather than at its start, would survive one cycle
// longer than with sync.Pool (see the gcpressure workload of poolbench).
type oldList[T any] struct {
	strong []T             // the list, when held strongly
	weak   weak.Pointer[T] // its first element, when held weakly
	n, cap int             // length and capacity of the weakly held list
}

// set makes l hold objs, weakly if weakly is true (and T has a size).
func (l *oldList[T]) set(objs []T, weakly bool) {
	*l = oldList[T]{}
	if len(objs) == 0 {
		return
	}
	var zero T
	if !weakly || unsafe.Sizeof(zero) == 0 {
		l.strong = objs
		return
	}
	l.weak = weak.Make(&objs[0])
	l.n, l.cap = len(objs), cap(objs)
}

// take removes and returns all of l's objects that still exist, as a
// strongly held slice, and the number that were counted but collected.
func (l *oldList[T]) take() (objs []T, collected int) {
	if l.strong != nil {
		objs = l.strong
	} else if l.n > 0 {
		if p := l.weak.Value(); p != nil {
			objs = unsafe.Slice(p, l.cap)[:l.n]
		} else {
			collected = l.n
		}
	}
	*l = oldList[T]{}
	return objs, collected
}

// pop removes and returns the last object of l. If the GC collected a weak
// list, pop empties l and returns how many objects went with it.
func (l *oldList[T]) pop() (x T, ok bool, collected int) {
	if l.strong != nil {
		x, ok = popList(&l.strong)
		return x, ok, 0
	}
	if l.n == 0 {
		return x, false, 0
	}
	p := l.weak.Value()
	if p == nil {
		collected = l.n
		*l = oldList[T]{}
		return x, false, collected
	}
	s := unsafe.Slice(p, l.cap)
	l.n--
	x = s[l.n]
	var zero T
	s[l.n] = zero
	return x, true, 0
}
