// Package bug reproduces the shape of planetscale/vtprotobuf#35
// (https://github.com/planetscale/vtprotobuf/pull/35), see also #8: the
// generated ResetVT of a pooled message truncated its repeated field to
// length zero but kept the elements' own pointer and slice fields; the
// next unmarshal into the pooled message extended the slice over the old
// elements and produced a merge of two requests.
//
// Check: noreset (a reset that forgets nested fields; decoding into the
// pooled object then merges stale data).
package bug

import "sync"

type Label struct {
	Name   string
	Values []string
	Meta   *string
}

type Request struct {
	Labels []Label
}

func (m *Request) ResetVT() {
	m.Labels = m.Labels[:0]
}

var requestPool = sync.Pool{New: func() any { return new(Request) }}

func RequestFromVTPool() *Request { return requestPool.Get().(*Request) }

func (m *Request) ReturnToVTPool() {
	m.ResetVT()
	requestPool.Put(m) // want `noreset|not reset|clear|stale|forg|nested`
}

// UnmarshalVT appends labels, reusing the backing array's old elements
// and setting only the fields present in the input.
func (m *Request) UnmarshalVT(names []string) {
	for _, n := range names {
		if len(m.Labels) < cap(m.Labels) {
			m.Labels = m.Labels[:len(m.Labels)+1]
		} else {
			m.Labels = append(m.Labels, Label{})
		}
		m.Labels[len(m.Labels)-1].Name = n
	}
}

func Handle(names []string, use func(*Request)) {
	m := RequestFromVTPool()
	m.UnmarshalVT(names)
	use(m)
	m.ReturnToVTPool()
}
