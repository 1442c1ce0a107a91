// Package fixed is a fixed twin of planetscale/vtprotobuf#35
// (https://github.com/planetscale/vtprotobuf/pull/35): ResetVT resets each
// element before truncating, so nothing of the previous message survives.
package fixed

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
	for i := range m.Labels {
		m.Labels[i] = Label{Values: m.Labels[i].Values[:0]}
	}
	m.Labels = m.Labels[:0]
}

var requestPool = sync.Pool{New: func() any { return new(Request) }}

func RequestFromVTPool() *Request { return requestPool.Get().(*Request) }

func (m *Request) ReturnToVTPool() {
	m.ResetVT()
	requestPool.Put(m)
}

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
