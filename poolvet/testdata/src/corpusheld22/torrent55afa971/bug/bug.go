// Package bug reproduces the shape of anacrolix/torrent commit 55afa971
// (https://github.com/anacrolix/torrent/commit/55afa971fef8a1d571bc826fa8f096b44e89adac,
// "Clear the pooled PeerConn slice before returning it to the pool"):
// withUnclosedConns borrows a []*PeerConn from peerConnSlices (resliced to
// [:0] by getPeerConnSlice), fills it through appendUnclosedConns/appendConns,
// hands it to a callback and puts it back. Truncating to [:0] keeps the old
// pointers in the backing array, so dead PeerConns stay reachable from the
// pool until it drains.
// Check: noreset (the Put in withUnclosedConns).
package bug

import (
	"container/heap"
	"sync"
	"sync/atomic"
)

type PeerConn struct {
	closed   atomic.Bool
	outgoing bool
	rate     float64
}

type Torrent struct {
	conns map[*PeerConn]struct{}
}

func (t *Torrent) appendUnclosedConns(ret []*PeerConn) []*PeerConn {
	return t.appendConns(ret, func(conn *PeerConn) bool {
		return !conn.closed.Load()
	})
}

func (t *Torrent) appendConns(ret []*PeerConn, f func(*PeerConn) bool) []*PeerConn {
	for c := range t.conns {
		if f(c) {
			ret = append(ret, c)
		}
	}
	return ret
}

// A pool of []*PeerConn, to reduce allocations in functions that need to index or sort Torrent
// conns (which is a map).
var peerConnSlices sync.Pool

// maxPooledPeerConnSlice keeps one huge swarm from pinning a huge slice.
const maxPooledPeerConnSlice = 1024

func getPeerConnSlice(cap int) []*PeerConn {
	getInterface := peerConnSlices.Get()
	if getInterface == nil {
		return make([]*PeerConn, 0, cap)
	} else {
		return (*getInterface.(*[]*PeerConn))[:0]
	}
}

// Calls the given function with a slice of unclosed conns. It uses a pool to reduce allocations as
// this is a frequent occurrence.
func (t *Torrent) withUnclosedConns(f func([]*PeerConn)) {
	sl := t.appendUnclosedConns(getPeerConnSlice(len(t.conns)))
	f(sl)
	if cap(sl) > maxPooledPeerConnSlice {
		return
	}
	peerConnSlices.Put(&sl) // want `noreset`
}

type worseConnSlice struct {
	conns []*PeerConn
}

func (s *worseConnSlice) Len() int           { return len(s.conns) }
func (s *worseConnSlice) Less(i, j int) bool { return s.conns[i].rate < s.conns[j].rate }
func (s *worseConnSlice) Swap(i, j int)      { s.conns[i], s.conns[j] = s.conns[j], s.conns[i] }
func (s *worseConnSlice) Push(x any)         { s.conns = append(s.conns, x.(*PeerConn)) }
func (s *worseConnSlice) Pop() any {
	old := s.conns
	n := len(old)
	x := old[n-1]
	s.conns = old[:n-1]
	return x
}

func (t *Torrent) worstBadConnFromSlice(outgoingIsBad bool, sl []*PeerConn) *PeerConn {
	wcs := worseConnSlice{conns: sl}
	heap.Init(&wcs)
	for wcs.Len() != 0 {
		c := heap.Pop(&wcs).(*PeerConn)
		if outgoingIsBad && c.outgoing {
			return c
		}
	}
	return nil
}

func (t *Torrent) worstBadConn(outgoingIsBad bool) (ret *PeerConn) {
	t.withUnclosedConns(func(ucs []*PeerConn) {
		ret = t.worstBadConnFromSlice(outgoingIsBad, ucs)
	})
	return
}
