// Package fixed is grafana/mimir#11690 after the fix
// (https://github.com/grafana/mimir/pull/11690): updateOneSidePresence
// clears the group's field when it gives the presence slice back, so a
// later Close finds nothing left to put.
package fixed

import "sync"

const maxPooledBools = 1 << 16

var boolSlicePool = sync.Pool{New: func() any {
	b := make([]bool, 0, 64)
	return &b
}}

func getBools(n int) *[]bool {
	bp := boolSlicePool.Get().(*[]bool)
	if cap(*bp) < n {
		*bp = make([]bool, n)
	}
	*bp = (*bp)[:n]
	clear(*bp)
	return bp
}

func putBools(bp *[]bool) {
	if cap(*bp) > maxPooledBools {
		return
	}
	*bp = (*bp)[:0]
	boolSlicePool.Put(bp)
}

type matchGroup struct {
	presence           *[]bool
	remainingOneSeries int
}

// updateOneSidePresence records that series idx of the "one" side was read.
// Once every series of the group has been read, the presence slice goes
// back to the pool and the group forgets it.
func (g *matchGroup) updateOneSidePresence(idx int) {
	(*g.presence)[idx] = true
	g.remainingOneSeries--
	if g.remainingOneSeries == 0 {
		putBools(g.presence)
		g.presence = nil
	}
}

type oneSide struct {
	group *matchGroup
}

// Close releases what the side still holds.
func (s *oneSide) Close() {
	if s.group.presence != nil {
		putBools(s.group.presence)
		s.group.presence = nil
	}
}

func newOneSide(n int) *oneSide {
	return &oneSide{group: &matchGroup{presence: getBools(n), remainingOneSeries: n}}
}

// Evaluate reads every series of the "one" side, then stops early, as an
// enclosing binary operation that needs only some output series does.
func Evaluate(n int, stopEarly bool) int {
	s := newOneSide(n)
	read := 0
	for idx := 0; idx < n; idx++ {
		s.group.updateOneSidePresence(idx)
		read++
	}
	if stopEarly {
		s.Close()
	}
	return read
}
