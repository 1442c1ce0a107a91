// Package bug reproduces the shape of grafana/mimir#11690
// (https://github.com/grafana/mimir/pull/11690): in MQE's one-to-many binary
// operation, a match group's `presence` slice came from a pool. When the
// last series of the "one" side was read, updateOneSidePresence gave the
// slice back but left the group's field pointing at it; if the operator was
// then closed before all output series were emitted, oneSide.Close put the
// same slice back again. (MQE's bucketed pool is its own type; sync.Pool
// stands in for it here.)
//
// Check: doubleput (a method puts a field of the group and keeps the field;
// a later Close of the same group puts that field again). The report is
// expected at the s.Close() call that performs the second Put, the way the
// docs place a second lifecycle call; the Put inside Close alone is fine.
package bug

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
// Once every series of the group has been read, the presence slice is no
// longer needed and goes back to the pool.
func (g *matchGroup) updateOneSidePresence(idx int) {
	(*g.presence)[idx] = true
	g.remainingOneSeries--
	if g.remainingOneSeries == 0 {
		putBools(g.presence)
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
		s.Close() // want `doubleput`
	}
	return read
}
