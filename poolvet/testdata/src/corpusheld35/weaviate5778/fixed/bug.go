// Package bug reproduces the shape of weaviate/weaviate#5778 (https://github.com/weaviate/weaviate/pull/5778,
// fix commit https://github.com/weaviate/weaviate/commit/1b384f9f3aeb656d2c3b564d1a2a3aa5fec50238
// "fixing bug and encapsulating the reset when putting the object back to the pool"): HNSW keeps
// its visited sets in a sync.Pool and every caller was expected to Reset the set before the Put.
// The layer search did so, but the tombstone-cleanup path of the neighbor finder put the set back
// with all the node ids it had marked, so the next search that got it skipped those nodes as
// "already visited". The fix moved the Reset into a small pool wrapper's Put.
// Fixed: the pool is wrapped and the wrapper's Put resets the set, so no caller can forget it.
package bug

import (
	"errors"
	"sync"
)

type SparseSet struct {
	bits []uint64
}

func NewSparseSet(size int) *SparseSet {
	return &SparseSet{bits: make([]uint64, size/64+1)}
}

func (s *SparseSet) Visit(id uint64) {
	if int(id/64) >= len(s.bits) {
		return // fixed capacity, sized for the graph when the pool was built
	}
	s.bits[id/64] |= 1 << (id % 64)
}

func (s *SparseSet) Visited(id uint64) bool {
	if int(id/64) >= len(s.bits) {
		return false
	}
	return s.bits[id/64]&(1<<(id%64)) != 0
}

func (s *SparseSet) Reset() {
	for i := range s.bits {
		s.bits[i] = 0
	}
}

type visitedPool struct {
	pool *sync.Pool
}

func newVisitedPool() *visitedPool {
	return &visitedPool{
		pool: &sync.Pool{
			New: func() interface{} {
				return NewSparseSet(1 << 16)
			},
		},
	}
}

func (vp *visitedPool) Get() *SparseSet {
	return vp.pool.Get().(*SparseSet)
}

func (vp *visitedPool) Put(v *SparseSet) {
	v.Reset()
	vp.pool.Put(v)
}

type pools struct {
	visitedLists *visitedPool
}

func newPools() *pools {
	return &pools{
		visitedLists: newVisitedPool(),
	}
}

type node struct {
	sync.Mutex
	id          uint64
	connections [][]uint64
}

type graph struct {
	pools *pools
	nodes []*node
}

var errCanceled = errors.New("context canceled")

// searchLayer gets and puts through the resetting wrapper.
func (g *graph) searchLayer(entry uint64, level int) ([]uint64, error) {
	visited := g.pools.visitedLists.Get()
	var out []uint64
	queue := []uint64{entry}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		if visited.Visited(id) {
			continue
		}
		visited.Visit(id)
		if int(id) >= len(g.nodes) || g.nodes[id] == nil {
			g.pools.visitedLists.Put(visited)
			return nil, errCanceled
		}
		out = append(out, id)
		if level < len(g.nodes[id].connections) {
			queue = append(queue, g.nodes[id].connections[level]...)
		}
	}
	g.pools.visitedLists.Put(visited)
	return out, nil
}

type neighborFinderConnector struct {
	graph    *graph
	node     *node
	denyList map[uint64]struct{}
}

func (n *neighborFinderConnector) processRecursively(from uint64, visited *SparseSet, level, top int) error {
	if top <= 0 {
		return nil
	}
	if int(from) >= len(n.graph.nodes) || n.graph.nodes[from] == nil {
		return nil
	}
	other := n.graph.nodes[from]
	other.Lock()
	if level >= len(other.connections) {
		other.Unlock()
		return nil
	}
	connections := append([]uint64(nil), other.connections[level]...)
	other.Unlock()
	for _, id := range connections {
		if visited.Visited(id) {
			continue
		}
		visited.Visit(id)
		if _, denied := n.denyList[id]; denied {
			if err := n.processRecursively(id, visited, level, top-1); err != nil {
				return err
			}
		}
	}
	return nil
}

func (n *neighborFinderConnector) doAtLevel(level int) ([]uint64, error) {
	visited := n.graph.pools.visitedLists.Get()
	n.node.Lock()
	connections := make([]uint64, len(n.node.connections[level]))
	copy(connections, n.node.connections[level])
	n.node.Unlock()
	visited.Visit(n.node.id)

	var extraIDs, pending []uint64
	for _, id := range connections {
		visited.Visit(id)
		if _, denied := n.denyList[id]; denied {
			pending = append(pending, id)
			continue
		}
		extraIDs = append(extraIDs, id)
	}
	for _, id := range pending {
		visited.Visit(id)
		if err := n.processRecursively(id, visited, level, 64); err != nil {
			n.graph.pools.visitedLists.Put(visited)
			return nil, err
		}
	}
	n.graph.pools.visitedLists.Put(visited)
	return extraIDs, nil
}
