// Package bug reproduces the shape of odvcencio/gotreesitter#45
// (https://github.com/odvcencio/gotreesitter/pull/45): the GLR parser keeps a
// scratch slab of stack entries (each holding a *Node of the parse tree) in a
// process-wide sync.Pool. The slab's reset cleared only the slots below the
// current "used" mark, but dropped stacks hand their slots back by lowering
// that mark, so the tail of the backing array kept *Node pointers from the
// previous parse alive while the scratch sat in the pool. The fix clears the
// whole backing array.
//
// Check: noreset (the partial clear in glrEntryScratch.reset leaves stale
// pointers in the pooled slab).
package bug

import "sync"

// Node is a parse tree node; it links to other nodes.
type Node struct {
	Symbol   uint16
	Parent   *Node
	Children []*Node
}

type stackEntry struct {
	state uint16
	node  *Node
}

const maxRetainedStackEntryCap = 1 << 16

type glrEntryScratch struct {
	buf  []stackEntry
	used int
}

// take hands out n entries from the slab, growing it when needed.
func (s *glrEntryScratch) take(n int) []stackEntry {
	if s.used+n > len(s.buf) {
		nb := make([]stackEntry, 2*(s.used+n))
		copy(nb, s.buf[:s.used])
		s.buf = nb
	}
	out := s.buf[s.used : s.used+n : s.used+n]
	s.used += n
	return out
}

// giveBack returns the top n entries when a stack version is dropped; the
// slots are reused by the next take.
func (s *glrEntryScratch) giveBack(n int) {
	if n > s.used {
		n = s.used
	}
	s.used -= n
}

func (s *glrEntryScratch) reset() {
	// Clear the whole backing array, not just [:used]: slots handed back by
	// giveBack still hold *Node pointers from this parse.
	clear(s.buf)
	s.used = 0
}

type parserScratch struct {
	entries glrEntryScratch
}

var parserScratchPool = sync.Pool{
	New: func() any { return new(parserScratch) },
}

func acquireParserScratch() *parserScratch {
	return parserScratchPool.Get().(*parserScratch)
}

func releaseParserScratch(ps *parserScratch) {
	ps.entries.reset()
	if cap(ps.entries.buf) > maxRetainedStackEntryCap {
		ps.entries.buf = nil
	}
	parserScratchPool.Put(ps)
}

// Parse builds a few stack versions, drops the ambiguous ones and returns the
// surviving root.
func Parse(tokens []uint16) *Node {
	ps := acquireParserScratch()
	defer releaseParserScratch(ps)

	var root *Node
	for i, tok := range tokens {
		versions := ps.entries.take(2)
		leaf := &Node{Symbol: tok}
		versions[0] = stackEntry{state: uint16(i), node: leaf}
		versions[1] = stackEntry{state: uint16(i) + 1, node: &Node{Symbol: tok, Children: []*Node{leaf}}}
		if tok%2 == 0 {
			// the second version lost; its slot goes back to the slab
			ps.entries.giveBack(1)
		}
		if root == nil {
			root = &Node{Symbol: 0}
		}
		leaf.Parent = root
		root.Children = append(root.Children, leaf)
	}
	return root
}
