package noreset

import "sync"

type peerConn struct {
	closed bool
	buf    []byte
}

type swarm struct {
	conns map[*peerConn]bool
}

var peerConnSlices sync.Pool

func getPeerConns(n int) []*peerConn {
	v := peerConnSlices.Get()
	if v == nil {
		return make([]*peerConn, 0, n)
	}
	return (*v.(*[]*peerConn))[:0]
}

func (s *swarm) appendOpen(ret []*peerConn) []*peerConn {
	for c := range s.conns {
		if !c.closed {
			ret = append(ret, c)
		}
	}
	return ret
}

// The slice goes back still pointing at every connection of this use
// (anacrolix/torrent c8299bf0).
func (s *swarm) withOpenConns(f func([]*peerConn)) {
	sl := s.appendOpen(getPeerConns(len(s.conns)))
	f(sl)
	if cap(sl) > 1024 {
		return
	}
	peerConnSlices.Put(&sl) // want `&sl goes back to the pool holding the elements stored or appended in it, not cleared`
}

var connListPool = sync.Pool{New: func() any { return new([]*peerConn) }}

func countClosed(s *swarm) int {
	p := connListPool.Get().(*[]*peerConn)
	*p = s.appendOpen((*p)[:0])
	n := len(*p)
	connListPool.Put(p) // want `p goes back to the pool holding the elements stored or appended in it, not cleared`
	return n
}

// Silent: cleared over its whole capacity before the Put.
func (s *swarm) withOpenConnsCleared(f func([]*peerConn)) {
	sl := s.appendOpen(getPeerConns(len(s.conns)))
	f(sl)
	if cap(sl) > 1024 {
		return
	}
	clear(sl[:cap(sl)])
	peerConnSlices.Put(&sl)
}

var connIDPool = sync.Pool{New: func() any { return new([]int) }}

// Silent: elements that point nowhere.
func openIDs(ids map[int]bool) int {
	p := connIDPool.Get().(*[]int)
	for id := range ids {
		*p = append(*p, id)
	}
	n := len(*p)
	*p = (*p)[:0]
	connIDPool.Put(p)
	return n
}

// An element set to the caller's record, put back by a deferred closure
// without clear (open-telemetry/opentelemetry-go#8233).
type feRecord struct {
	Body  string
	Attrs []string
}

var feRecordsPool = sync.Pool{New: func() any { s := make([]feRecord, 1); return &s }}

func feExport(r *feRecord, export func([]feRecord) error) error {
	records := feRecordsPool.Get().(*[]feRecord)
	(*records)[0] = *r
	defer func() {
		feRecordsPool.Put(records) // want `records goes back to the pool holding the elements stored or appended in it, not cleared`
	}()
	return export(*records)
}

// The fix: cleared in the closure; silent.
func feExport2(r *feRecord, export func([]feRecord) error) error {
	records := feRecordsPool.Get().(*[]feRecord)
	defer func() {
		clear(*records)
		feRecordsPool.Put(records)
	}()
	(*records)[0] = *r
	return export(*records)
}

// Elements set from the function's own values: silent.
func feExport3(export func([]feRecord) error) error {
	records := feRecordsPool.Get().(*[]feRecord)
	defer func() {
		feRecordsPool.Put(records)
	}()
	(*records)[0] = feRecord{Body: "static"}
	return export(*records)
}
