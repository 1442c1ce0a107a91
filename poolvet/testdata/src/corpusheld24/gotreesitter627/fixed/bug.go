// Package bug is the fixed twin of odvcencio/gotreesitter#627
// (https://github.com/odvcencio/gotreesitter/pull/627): when the newest slab
// alone exceeds the retention budget, reset drops every slab, so the pooled
// scratch never keeps an oversized slab.
//
// Check: unbounded (no report expected).
package bug

import "sync"

const (
	defaultStackEntrySlabCap = 4 * 1024
	maxRetainedStackEntryCap = 512 * 1024
)

// Node is a syntax tree node.
type Node struct {
	children []*Node
}

type stackEntry struct {
	state uint16
	node  *Node
}

type stackEntrySlab struct {
	data []stackEntry
	used int
}

type glrEntryScratch struct {
	slabs      []stackEntrySlab
	slabCursor int
}

type parserScratch struct {
	entries glrEntryScratch
}

var parserScratchPool = sync.Pool{
	New: func() any {
		return &parserScratch{}
	},
}

func acquireParserScratch() *parserScratch {
	return parserScratchPool.Get().(*parserScratch)
}

func releaseParserScratch(s *parserScratch) {
	if s == nil {
		return
	}
	s.entries.reset()
	parserScratchPool.Put(s)
}

// alloc carves n entries out of the slabs, appending a slab twice as large as
// the previous one when none has room.
func (s *glrEntryScratch) alloc(n int) []stackEntry {
	if n <= 0 {
		return nil
	}
	for i := s.slabCursor; ; i++ {
		if i >= len(s.slabs) {
			lastCap := defaultStackEntrySlabCap
			if len(s.slabs) > 0 {
				lastCap = len(s.slabs[len(s.slabs)-1].data)
			}
			capacity := lastCap * 2
			if n > capacity {
				capacity = n
			}
			s.slabs = append(s.slabs, stackEntrySlab{data: make([]stackEntry, capacity)})
		}
		slab := &s.slabs[i]
		if len(slab.data)-slab.used < n {
			continue
		}
		start := slab.used
		slab.used += n
		s.slabCursor = i
		return slab.data[start:slab.used:slab.used]
	}
}

func (s *glrEntryScratch) grow(entries []stackEntry, minCap int) []stackEntry {
	newCap := cap(entries) * 2
	if newCap < minCap {
		newCap = minCap
	}
	out := s.alloc(newCap)
	copy(out, entries)
	return out[:len(entries)]
}

// reset clears the entries and trims the slabs to the retention budget.
func (s *glrEntryScratch) reset() {
	if len(s.slabs) == 0 {
		return
	}
	total := 0
	for i := range s.slabs {
		total += len(s.slabs[i].data)
	}
	if total > maxRetainedStackEntryCap {
		keepFrom := len(s.slabs) - 1
		retained := len(s.slabs[keepFrom].data)
		if retained > maxRetainedStackEntryCap {
			// the newest slab alone is over budget: drop everything
			clear(s.slabs)
			s.slabs = nil
			s.slabCursor = 0
			return
		}
		// keep the newest slabs that fit the budget
		for keepFrom > 0 {
			next := retained + len(s.slabs[keepFrom-1].data)
			if next > maxRetainedStackEntryCap {
				break
			}
			keepFrom--
			retained = next
		}
		if keepFrom > 0 {
			oldLen := len(s.slabs)
			copy(s.slabs, s.slabs[keepFrom:])
			newLen := oldLen - keepFrom
			for i := newLen; i < oldLen; i++ {
				s.slabs[i] = stackEntrySlab{}
			}
			s.slabs = s.slabs[:newLen]
		}
	}
	for i := range s.slabs {
		clear(s.slabs[i].data)
		s.slabs[i].used = 0
	}
	s.slabCursor = 0
}

// parse pushes one entry per token; deep inputs make the stack grow.
func parse(tokens []uint16) int {
	scratch := acquireParserScratch()
	defer releaseParserScratch(scratch)

	stack := scratch.entries.alloc(1)[:0]
	for _, tok := range tokens {
		if len(stack) == cap(stack) {
			stack = scratch.entries.grow(stack, len(stack)+1)
		}
		stack = append(stack, stackEntry{state: tok, node: &Node{}})
	}
	return len(stack)
}
