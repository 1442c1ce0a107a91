// Package bug reproduces the shape of anacrolix/torrent commit c8299bf0
// (https://github.com/anacrolix/torrent/commit/c8299bf0017f6fa5068fecfbc3e94c39a0661ace):
// Torrent.withUnclosedConns borrows a []*PeerConn from a sync.Pool (getPeerConnSlice reslices
// the pooled slice to [:0]), fills it with the torrent's open connections, runs a callback and
// puts the slice back. [:0] only moves the length: the backing array still points at every
// PeerConn of the previous use, so closed connections stay reachable from the pool. The fix
// clears the whole capacity before the Put.
// Check: noreset (fixed twin: clear(sl[:cap(sl)]) before the Put).
package bug

import "sync"

type PeerConn struct {
	outgoing bool
	closed   bool
	buf      []byte
}

type Torrent struct {
	conns map[*PeerConn]struct{}
}

func (t *Torrent) appendConns(ret []*PeerConn, f func(*PeerConn) bool) []*PeerConn {
	for c := range t.conns {
		if f(c) {
			ret = append(ret, c)
		}
	}
	return ret
}

func (t *Torrent) appendUnclosedConns(ret []*PeerConn) []*PeerConn {
	return t.appendConns(ret, func(c *PeerConn) bool {
		return !c.closed
	})
}

var peerConnSlices sync.Pool

const maxPooledConns = 1024

func getPeerConnSlice(n int) []*PeerConn {
	v := peerConnSlices.Get()
	if v == nil {
		return make([]*PeerConn, 0, n)
	}
	return (*v.(*[]*PeerConn))[:0]
}

// withUnclosedConns calls f with a slice of the open connections; the slice is pooled
// because this runs often.
func (t *Torrent) withUnclosedConns(f func([]*PeerConn)) {
	sl := t.appendUnclosedConns(getPeerConnSlice(len(t.conns)))
	f(sl)
	if cap(sl) > maxPooledConns {
		return
	}
	// Clear the full capacity: an earlier, longer use may have left conns past len(sl).
	clear(sl[:cap(sl)])
	peerConnSlices.Put(&sl)
}

func (t *Torrent) countOutgoing() (n int) {
	t.withUnclosedConns(func(cs []*PeerConn) {
		for _, c := range cs {
			if c.outgoing {
				n++
			}
		}
	})
	return n
}
