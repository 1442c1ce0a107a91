// Source: https://github.com/grafana/loki/commit/ff211cec6b4b7afd025db278e13797605c30dcc5
// ("prevent shared access bug with tailers and entry pool"); files
// pkg/ingester/stream.go, pkg/ingester/tailer.go, pkg/ingester/wal.go.
// The commit is part of https://github.com/grafana/loki/pull/2981 (WAL
// support), the pull request that introduced the entry pool.
//
// Bug: stream.Push collects the stored entries in a slice taken from
// recordPool (GetEntries) and hands it to a goroutine that calls
// tailer.send for every tailer. tailer.send defers
// recordPool.PutEntries(stream.Entries) and, with a no-op pipeline, pushes
// &stream (whose Entries is that pooled slice) onto t.sendChan, where the
// tailer's loop reads it later. The slice is back in the pool while the
// tailer (and the next tailers in the loop) still read it, so a concurrent
// Push reuses and overwrites it.
//
// Fix: Push defers recordPool.PutEntries(storedEntries) itself, the tailer
// goroutine copies the entries into a fresh slice, and tailer.send no longer
// puts anything back. (As upstream wrote it, the copy runs inside the
// goroutine, so it can still race with Push's deferred PutEntries; the fixed
// twin keeps that as is.)
//
// (PutEntries stores a slice value in a sync.Pool, marked nolint:staticcheck
// upstream; that is not the bug of this case and is present in both twins.)
//
// Check: useafterput (in tailer.send the channel send of s, which aliases
// stream.Entries, lets the pooled slice outlive the deferred PutEntries)
package fixed

import (
	"sync"
	"time"
)

// wal.go

type Entry struct {
	Timestamp time.Time
	Line      string
}

type Stream struct {
	Labels  string
	Entries []Entry
}

type resettingPool struct {
	ePool *sync.Pool // entries
}

func (p *resettingPool) GetEntries() []Entry {
	return p.ePool.Get().([]Entry)
}

func (p *resettingPool) PutEntries(es []Entry) {
	p.ePool.Put(es[:0]) // nolint:staticcheck
}

func newRecordPool() *resettingPool {
	return &resettingPool{
		ePool: &sync.Pool{
			New: func() interface{} {
				return make([]Entry, 0, 512)
			},
		},
	}
}

var recordPool = newRecordPool()

// tailer.go

type tailer struct {
	id       uint32
	sendChan chan *Stream
	closed   bool
	mtx      sync.RWMutex
}

func (t *tailer) isClosed() bool {
	t.mtx.RLock()
	defer t.mtx.RUnlock()
	return t.closed
}

func (t *tailer) getID() uint32 { return t.id }

func (t *tailer) dropStream(stream Stream) {}

func (t *tailer) processStream(stream Stream) []*Stream {
	// Optimization: skip filtering entirely, if no filter is set
	return []*Stream{&stream}
}

func (t *tailer) send(stream Stream) {
	if t.isClosed() {
		return
	}

	streams := t.processStream(stream)
	if len(streams) == 0 {
		return
	}
	for _, s := range streams {
		select {
		case t.sendChan <- s:
		default:
			t.dropStream(*s)
		}
	}
}

// stream.go

type stream struct {
	labelsString string
	tailerMtx    sync.RWMutex
	tailers      map[uint32]*tailer
	lastLine     Entry
}

func (s *stream) Push(entries []Entry) error {
	storedEntries := recordPool.GetEntries()
	defer recordPool.PutEntries(storedEntries)

	for i := range entries {
		if entries[i].Timestamp.Equal(s.lastLine.Timestamp) && entries[i].Line == s.lastLine.Line {
			continue
		}
		storedEntries = append(storedEntries, entries[i])
		s.lastLine = entries[i]
	}

	if len(storedEntries) != 0 {
		s.tailerMtx.RLock()
		hasTailers := len(s.tailers) != 0
		s.tailerMtx.RUnlock()
		if hasTailers {
			go func() {
				// Since tailers run on their own goroutine, we must copy over the entries to prevent
				// shared access bugs after releasing the entries back into the pool.
				entries := make([]Entry, len(storedEntries))
				_ = copy(entries, storedEntries)
				stream := Stream{Labels: s.labelsString, Entries: entries}

				closedTailers := []uint32{}

				s.tailerMtx.RLock()
				for _, tailer := range s.tailers {
					if tailer.isClosed() {
						closedTailers = append(closedTailers, tailer.getID())
						continue
					}
					tailer.send(stream)
				}
				s.tailerMtx.RUnlock()

				if len(closedTailers) != 0 {
					s.tailerMtx.Lock()
					defer s.tailerMtx.Unlock()

					for _, closedTailerID := range closedTailers {
						delete(s.tailers, closedTailerID)
					}
				}
			}()
		}
	}
	return nil
}
