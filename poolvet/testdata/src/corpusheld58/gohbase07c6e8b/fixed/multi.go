// Source: https://github.com/tsuna/gohbase/commit/07c6e8beabdcbc401de9ecbd1f2a9f19627eca44
// ("region: Set pointers to nil in freeMulti").
//
// Bug: region.multi batches RPC calls and is taken from multiPool.
// freeMulti truncated m.calls and m.regions with [:0] before putting the
// multi back, so the backing arrays still held every hrpc.Call (with its
// context, request and result channel) and every RegionInfo of the last
// batch. Those references were kept alive for as long as the pooled multi
// kept being reused.
// Fix: nil out every element of m.calls before truncating, and drop
// m.regions entirely (it is re-made by toProto on each use).
//
// Check: noreset (at the Put in freeMulti: the multi goes back to the pool
// still referencing the previous batch's calls and regions)
package fixed

import (
	"context"
	"sync"
)

type RegionInfo interface {
	Name() []byte
}

type RPCResult struct {
	Msg   interface{}
	Error error
}

// Call is the trimmed hrpc.Call interface.
type Call interface {
	Name() string
	Region() RegionInfo
	Context() context.Context
	ResultChan() chan RPCResult
}

var multiPool = sync.Pool{
	New: func() interface{} {
		return &multi{}
	},
}

func freeMulti(m *multi) {
	// Set pointers to nil to allow the objects to be garbage
	// collected
	for i := range m.calls {
		m.calls[i] = nil
	}
	m.calls = m.calls[:0]
	// set m.regions to nil because the slice is not reused.
	m.regions = nil
	m.size = 0
	multiPool.Put(m)
}

type multi struct {
	ctxM sync.Mutex
	ctx  context.Context

	size  int
	calls []Call
	// regions preserves the order of regions to match against RegionActionResults
	regions []RegionInfo
}

func newMulti(ctx context.Context, queueSize int) *multi {
	m := multiPool.Get().(*multi)
	m.ctx = ctx
	m.size = queueSize
	return m
}

func (m *multi) toProto() [][]byte {
	perReg := map[RegionInfo][]int{}
	for i, c := range m.calls {
		if c.Context().Err() != nil {
			// context has expired, don't bother sending it
			m.calls[i] = nil
			continue
		}
		perReg[c.Region()] = append(perReg[c.Region()], i)
	}
	m.regions = make([]RegionInfo, len(perReg))
	var names [][]byte
	i := 0
	for r := range perReg {
		names = append(names, r.Name())
		m.regions[i] = r
		i++
	}
	return names
}

func (m *multi) returnResults(err error) {
	defer freeMulti(m)

	for _, c := range m.calls {
		if c == nil {
			continue
		}
		c.ResultChan() <- RPCResult{Error: err}
	}
}

// add adds the call and returns wether the batch is full.
func (m *multi) add(call Call) bool {
	m.calls = append(m.calls, call)
	return len(m.calls) == m.size
}

func processRPCs(rpcs <-chan Call, send func(*multi) error, queueSize int) {
	m := newMulti(context.Background(), queueSize)
	for rpc := range rpcs {
		if !m.add(rpc) {
			continue
		}
		m.toProto()
		if err := send(m); err != nil {
			m.returnResults(err)
		} else {
			m.returnResults(nil)
		}
		m = newMulti(context.Background(), queueSize)
	}
	m.returnResults(context.Canceled)
}
