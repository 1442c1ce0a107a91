package noreset

import "sync"

type column struct{ name string }

type resultSet struct {
	cols []*column
	raw  []byte
}

// Reset uncovers the previous user's columns (go-mysql-org/go-mysql#1131).
func (r *resultSet) Reset(n int) {
	if cap(r.cols) < n {
		r.cols = make([]*column, n)
	} else {
		r.cols = r.cols[:n] // want `Reset re-slices cols within its capacity without clearing it`
	}
	r.raw = r.raw[:n] // bytes hold no pointers: fine
}

type resultSet2 struct{ cols []*column }

// Cleared after the re-slice: fine.
func (r *resultSet2) Reset(n int) {
	if cap(r.cols) < n {
		r.cols = make([]*column, n)
	} else {
		r.cols = r.cols[:n]
		clear(r.cols)
	}
}

type label struct {
	name   string
	values []string
}

type vtRequest struct{ labels []label }

func (m *vtRequest) resetVT() { m.labels = m.labels[:0] }

var vtRequestPool = sync.Pool{New: func() any { return new(vtRequest) }}

func (m *vtRequest) release() {
	m.resetVT()
	vtRequestPool.Put(m) // want `m goes back to the pool with labels truncated but its elements still set, and unmarshal re-extends it over them`
}

// unmarshal reuses the old elements and sets only their names
// (planetscale/vtprotobuf#35).
func (m *vtRequest) unmarshal(names []string) {
	for _, n := range names {
		if len(m.labels) < cap(m.labels) {
			m.labels = m.labels[:len(m.labels)+1]
		} else {
			m.labels = append(m.labels, label{})
		}
		m.labels[len(m.labels)-1].name = n
	}
}

type vtRequest2 struct{ labels []label }

// Each element is reset before the truncation: fine.
func (m *vtRequest2) resetVT() {
	for i := range m.labels {
		m.labels[i] = label{values: m.labels[i].values[:0]}
	}
	m.labels = m.labels[:0]
}

var request2Pool = sync.Pool{New: func() any { return new(vtRequest2) }}

func (m *vtRequest2) release() {
	m.resetVT()
	request2Pool.Put(m)
}

func (m *vtRequest2) unmarshal(names []string) {
	for _, n := range names {
		if len(m.labels) < cap(m.labels) {
			m.labels = m.labels[:len(m.labels)+1]
		} else {
			m.labels = append(m.labels, label{})
		}
		m.labels[len(m.labels)-1].name = n
	}
}

type dnsMsg struct{ answer []*column }

// Truncate shrinks: nothing beyond the old length is uncovered (miekg/dns).
func (m *dnsMsg) Truncate(n int) {
	if n < len(m.answer) {
		m.answer = m.answer[:n]
	}
}
