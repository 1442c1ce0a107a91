package doubleput

import "sync"

var flagsPool = sync.Pool{New: func() any {
	b := make([]bool, 0, 64)
	return &b
}}

func putFlags(b *[]bool) {
	if cap(*b) > 1<<16 {
		return
	}
	*b = (*b)[:0]
	flagsPool.Put(b)
}

type group struct {
	seen      *[]bool
	remaining int
}

// markRead puts the flags once every series was read, but keeps the field.
func (g *group) markRead(i int) {
	(*g.seen)[i] = true
	g.remaining--
	if g.remaining == 0 {
		putFlags(g.seen)
	}
}

// markReadClearing clears the field it puts.
func (g *group) markReadClearing(i int) {
	(*g.seen)[i] = true
	g.remaining--
	if g.remaining == 0 {
		putFlags(g.seen)
		g.seen = nil
	}
}

type side struct{ g *group }

// close puts the flags unless they are gone.
func (s *side) close() {
	if s.g.seen != nil {
		putFlags(s.g.seen)
		s.g.seen = nil
	}
}

// markRead left s.g.seen holding what it put: close puts it again
// (grafana/mimir#11690).
func readAll(s *side, n int, stop bool) {
	for i := 0; i < n; i++ {
		s.g.markRead(i)
	}
	if stop {
		s.close() // want `this call puts s.g.seen again: the call at line 56 already put it and left the field holding it`
	}
}

// The method clears the field: silent.
func readAllClearing(s *side, n int, stop bool) {
	for i := 0; i < n; i++ {
		s.g.markReadClearing(i)
	}
	if stop {
		s.close()
	}
}

// The caller clears the field between the two: silent.
func readAllCallerClears(s *side, n int) {
	for i := 0; i < n; i++ {
		s.g.markRead(i)
	}
	s.g.seen = nil
	s.close()
}

// The caller drops the group that holds the flags: silent.
func readAllDropsGroup(s *side, n int) {
	for i := 0; i < n; i++ {
		s.g.markRead(i)
	}
	s.g = &group{}
	s.close()
}

func nextSide() *side { return &side{g: &group{}} }

// Each iteration reads a new side: silent.
func readEach(n int) {
	for i := 0; i < n; i++ {
		s := nextSide()
		if i > 0 {
			s.close()
		}
		s.g.markRead(0)
	}
}
