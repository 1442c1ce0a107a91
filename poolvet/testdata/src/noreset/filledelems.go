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
	peerConnSlices.Put(&sl) // want `&sl goes back to the pool holding the elements appended to it, not cleared`
}

var connListPool = sync.Pool{New: func() any { return new([]*peerConn) }}

func countClosed(s *swarm) int {
	p := connListPool.Get().(*[]*peerConn)
	*p = s.appendOpen((*p)[:0])
	n := len(*p)
	connListPool.Put(p) // want `p goes back to the pool holding the elements appended to it, not cleared`
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
