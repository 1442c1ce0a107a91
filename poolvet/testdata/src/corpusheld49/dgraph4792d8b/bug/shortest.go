// Source: https://github.com/dgraph-io/dgraph/pull/6437
// (commit https://github.com/dgraph-io/dgraph/commit/4792d8b1c4391a08ce2627f9615ed12699f2885f,
// "fix(Query): Fix wrong path response for k-shortest paths")
//
// Bug: runKShortestPaths keeps the path of every queue item in a
// *[]pathInfo taken from pathPool. When the popped item reaches the target,
// its route struct is appended to kroutes (a shallow copy: the *[]pathInfo is
// shared), and at the end of the loop iteration the popped item's path is put
// back with pathPool.Put(item.path.route). A later Get hands the same slice
// to a new queue item, which overwrites it, so the paths already collected in
// kroutes change and the k-shortest path query returns garbage paths.
// Fix: append a deep copy of *item.path.route to kroutes, so the pooled slice
// is no longer referenced after it goes back to the pool.
//
// Check: useafterput (at pathPool.Put(item.path.route): the slice was stored
// in kroutes, which outlives the Put and is read after the loop)
package bug

import (
	"container/heap"
	"context"
	"errors"
	"math"
	"sync"
)

type Facets struct {
	Keys []string
}

type pathInfo struct {
	uid   uint64
	attr  string
	facet *Facets
}

type route struct {
	route       *[]pathInfo
	totalWeight float64
}

type queueItem struct {
	uid   uint64  // uid of the node.
	cost  float64 // cost of taking the path till this uid.
	hop   int
	index int
	path  route // used in k shortest path.
}

type mapItem struct {
	attr  string
	cost  float64
	facet *Facets
}

var pathPool = sync.Pool{
	New: func() interface{} {
		return &[]pathInfo{}
	},
}

type priorityQueue []*queueItem

func (r *route) indexOf(uid uint64) int {
	for i, val := range *r.route {
		if val.uid == uid {
			return i
		}
	}
	return -1
}

func (h priorityQueue) Len() int { return len(h) }

func (h priorityQueue) Less(i, j int) bool { return h[i].cost < h[j].cost }

func (h priorityQueue) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}

func (h *priorityQueue) Push(val interface{}) {
	n := len(*h)
	item := val.(*queueItem)
	item.index = n
	*h = append(*h, item)
}

func (h *priorityQueue) Pop() interface{} {
	old := *h
	n := len(old)
	val := old[n-1]
	*h = old[0 : n-1]
	val.index = -1
	return val
}

type Params struct {
	From, To   uint64
	NumPaths   int
	MinWeight  float64
	MaxWeight  float64
	MaxHops    int
	Adjacency  map[uint64]map[uint64]mapItem
	ResultUids []uint64
}

func runKShortestPaths(ctx context.Context, p *Params) ([][]uint64, error) {
	numPaths := p.NumPaths
	var kroutes []route
	pq := make(priorityQueue, 0)

	// Initialize and push the source node.
	srcNode := &queueItem{
		uid:  p.From,
		cost: 0,
		hop:  0,
		path: route{route: &[]pathInfo{{uid: p.From}}},
	}
	heap.Push(&pq, srcNode)

	maxHops := math.MaxInt32
	if p.MaxHops > 0 {
		maxHops = p.MaxHops
	}
	minWeight := p.MinWeight
	maxWeight := p.MaxWeight
	adjacencyMap := p.Adjacency

	for pq.Len() > 0 {
		item := heap.Pop(&pq).(*queueItem)
		if item.uid == p.To {
			// Ignore paths that do not meet the minimum weight requirement.
			if item.cost < minWeight {
				continue
			}

			// Add path to list.
			newRoute := item.path
			newRoute.totalWeight = item.cost
			kroutes = append(kroutes, newRoute)
			if len(kroutes) == numPaths {
				// We found the required number of paths.
				break
			}
		}
		if item.hop >= maxHops {
			continue
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		default:
		}
		neighbours := adjacencyMap[item.uid]
		for toUid, info := range neighbours {
			cost := info.cost
			// Skip neighbour if the cost is greater than the maximum weight allowed.
			if item.cost+cost > maxWeight {
				continue
			}
			// Skip neighbour if it present in current path to remove cyclical paths
			if len(*item.path.route) > 0 && item.path.indexOf(toUid) != -1 {
				continue
			}
			curPath := pathPool.Get().(*[]pathInfo)
			if curPath == nil {
				return nil, errors.New("Sync pool returned a nil pointer")
			}
			if cap(*curPath) < len(*item.path.route)+1 {
				// We can't use it due to insufficient capacity. Put it back.
				pathPool.Put(curPath)
				newSlice := make([]pathInfo, len(*item.path.route)+1)
				curPath = &newSlice
			} else {
				// Use the curPath from pathPool. Set length appropriately.
				*curPath = (*curPath)[:len(*item.path.route)+1]
			}
			n := copy(*curPath, *item.path.route)
			(*curPath)[n] = pathInfo{
				uid:   toUid,
				attr:  info.attr,
				facet: info.facet,
			}
			node := &queueItem{
				uid:  toUid,
				cost: item.cost + cost,
				hop:  item.hop + 1,
				path: route{route: curPath},
			}
			heap.Push(&pq, node)
		}
		// Return the popped nodes path to pool.
		pathPool.Put(item.path.route) // want `useafterput`
	}

	if len(kroutes) == 0 {
		return nil, nil
	}
	var res []uint64
	for _, it := range *kroutes[0].route {
		res = append(res, it.uid)
	}
	p.ResultUids = res
	return createkroutes(kroutes), nil
}

func createkroutes(kroutes []route) [][]uint64 {
	out := make([][]uint64, 0, len(kroutes))
	for _, r := range kroutes {
		var uids []uint64
		for _, pi := range *r.route {
			uids = append(uids, pi.uid)
		}
		out = append(out, uids)
	}
	return out
}
