// Source: https://github.com/weaviate/weaviate/commit/6518e05328be463e3467d51570b48727db4f73d7
// ("fixing bug and encapsulating the reset when putting the object back to
// the pool", adapters/repos/db/vector/hnsw).
//
// Fixed twin: the sync.Pool of visited lists is wrapped in visitedPool, whose
// Put resets the SparseSet before returning it to the pool; callers no longer
// reset the list themselves.
//
// Check: noreset (none expected in the fixed twin)
package fixed

import (
	"errors"
	"sync"
)

// SparseSet is the visited list (hnsw/visited).
type SparseSet struct {
	size     uint64
	segments map[uint64][]bool
}

func NewSparseSet(size, collisionRate int) *SparseSet {
	return &SparseSet{size: uint64(size), segments: make(map[uint64][]bool)}
}

func (s *SparseSet) Visit(node uint64) {
	seg := node / 8192
	if s.segments[seg] == nil {
		s.segments[seg] = make([]bool, 8192)
	}
	s.segments[seg][node%8192] = true
}

func (s *SparseSet) Visited(node uint64) bool {
	seg := s.segments[node/8192]
	return seg != nil && seg[node%8192]
}

func (s *SparseSet) Reset() {
	for k := range s.segments {
		delete(s.segments, k)
	}
}

type pools struct {
	visitedListsLock *sync.RWMutex
	visitedLists     *visitedPool
}

func newPools() *pools {
	return &pools{
		visitedLists:     newVisitedPool(0),
		visitedListsLock: &sync.RWMutex{},
	}
}

type visitedPool struct {
	pool *sync.Pool
}

func newVisitedPool(initialSize int) *visitedPool {
	if initialSize <= 0 {
		initialSize = 1_000_000 // Default size if not specified
	}
	return &visitedPool{
		pool: &sync.Pool{
			New: func() interface{} {
				return NewSparseSet(initialSize, 8192)
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

type hnsw struct {
	pools          *pools
	efConstruction int
	connections    map[uint64][]uint64
}

type neighborFinderConnector struct {
	graph                 *hnsw
	nodeID                uint64
	tombstoneCleanupNodes bool
	denyList              map[uint64]bool
}

func (n *neighborFinderConnector) processRecursively(id uint64, visited *SparseSet, top int) error {
	if top <= 0 {
		return errors.New("no room left")
	}
	for _, c := range n.graph.connections[id] {
		if visited.Visited(c) {
			continue
		}
		visited.Visit(c)
	}
	return nil
}

func (n *neighborFinderConnector) doAtLevel(level int) error {
	if n.tombstoneCleanupNodes {
		visited := n.graph.pools.visitedLists.Get()
		connections := make([]uint64, len(n.graph.connections[n.nodeID]))
		copy(connections, n.graph.connections[n.nodeID])
		visited.Visit(n.nodeID)
		top := n.graph.efConstruction
		var pending []uint64 = nil

		for _, id := range connections {
			visited.Visit(id)
			if n.denyList[id] {
				pending = append(pending, id)
				continue
			}
			top--
		}
		for _, id := range pending {
			visited.Visit(id)
			err := n.processRecursively(id, visited, top)
			if err != nil {
				n.graph.pools.visitedLists.Put(visited)
				return err
			}
		}
		n.graph.pools.visitedLists.Put(visited)
	}
	return nil
}

func (h *hnsw) searchLayer(entryPoint uint64) ([]uint64, error) {
	h.pools.visitedListsLock.RLock()
	visited := h.pools.visitedLists.Get()
	h.pools.visitedListsLock.RUnlock()

	var results []uint64
	candidates := []uint64{entryPoint}
	visited.Visit(entryPoint)
	for len(candidates) > 0 {
		c := candidates[0]
		candidates = candidates[1:]
		results = append(results, c)
		for _, nb := range h.connections[c] {
			if visited.Visited(nb) {
				continue
			}
			visited.Visit(nb)
			candidates = append(candidates, nb)
		}
	}

	h.pools.visitedListsLock.RLock()
	h.pools.visitedLists.Put(visited)
	h.pools.visitedListsLock.RUnlock()
	return results, nil
}
