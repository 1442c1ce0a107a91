// Package bug reproduces the shape of anacrolix/torrent#205
// (https://github.com/anacrolix/torrent/issues/205). A megacheck (SA6002)
// clean-up, commit
// https://github.com/anacrolix/torrent/commit/9757f04cf8b0713b41890ca77b9acb3bf22f46e7
// ("Apply megacheck to torrent package"), changed putPieceInclination to put
// &pi into connPieceInclinationPool so that the slice header would not be
// boxed, but getConnPieceInclination still asserts the pooled value to []int.
// The pool has no New function: the first connection builds its inclination
// with rand.Perm, and once a connection is dropped and its inclination goes
// back as a *[]int, the next connection's Get panics with an interface
// conversion error. The fix (https://github.com/anacrolix/torrent/commit/ff1bd84e7e6165e263f8f0c5b4f6cd0093f76b7b,
// "Fix #205") dereferences a *[]int on Get.
// Check: typemismatch (the Put of &pi in putPieceInclination).
package bug

import (
	"expvar"
	"math/rand"
	"sync"
)

var (
	pieceInclinationsReused = expvar.NewInt("pieceInclinationsReused")
	pieceInclinationsNew    = expvar.NewInt("pieceInclinationsNew")
	pieceInclinationsPut    = expvar.NewInt("pieceInclinationsPut")
)

// Torrent is one torrent being downloaded.
type Torrent struct {
	mu        sync.Mutex
	numPieces int

	// Shuffled piece orders handed to connections, so that peers do not all
	// request the same pieces first.
	connPieceInclinationPool sync.Pool

	conns map[*connection]struct{}
}

func (t *Torrent) getConnPieceInclination() []int {
	_ret := t.connPieceInclinationPool.Get()
	if _ret == nil {
		pieceInclinationsNew.Add(1)
		return rand.Perm(t.numPieces)
	}
	pieceInclinationsReused.Add(1)
	return *_ret.(*[]int)
}

func (t *Torrent) putPieceInclination(pi []int) {
	t.connPieceInclinationPool.Put(&pi)
	pieceInclinationsPut.Add(1)
}

type connection struct {
	t                *Torrent
	pieceInclination []int
	requests         map[int]struct{}
}

func (cn *connection) getPieceInclination() []int {
	if cn.pieceInclination == nil {
		cn.pieceInclination = cn.t.getConnPieceInclination()
	}
	return cn.pieceInclination
}

func (cn *connection) discardPieceInclination() {
	if cn.pieceInclination == nil {
		return
	}
	cn.t.putPieceInclination(cn.pieceInclination)
	cn.pieceInclination = nil
}

// nextRequests picks up to n pieces the peer should be asked for, in the
// connection's own piece order.
func (cn *connection) nextRequests(n int, have func(int) bool) []int {
	var out []int
	for _, piece := range cn.getPieceInclination() {
		if len(out) == n {
			break
		}
		if have(piece) {
			continue
		}
		if _, ok := cn.requests[piece]; ok {
			continue
		}
		out = append(out, piece)
	}
	return out
}

func (t *Torrent) addConnection() *connection {
	t.mu.Lock()
	defer t.mu.Unlock()
	cn := &connection{t: t, requests: make(map[int]struct{})}
	if t.conns == nil {
		t.conns = make(map[*connection]struct{})
	}
	t.conns[cn] = struct{}{}
	return cn
}

func (t *Torrent) dropConnection(cn *connection) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.conns, cn)
	cn.discardPieceInclination()
}
