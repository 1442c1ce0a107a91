// Package bug reproduces the shape of kakao/varlog#75, fixed by
// kakao/varlog#416 (https://github.com/kakao/varlog/issues/75,
// https://github.com/kakao/varlog/pull/416): the storage node pooled the
// per-batch []*replicateTask slices in a sync.Pool of bare slices.
// releaseReplicateTaskSlice passed the slice to Put, whose parameter is an
// interface, so every release boxed the slice header on the heap.
// (The clear before truncating is not in the original; it keeps this case
// about the boxing only.)
//
// Check: nonpointer (a []*T slice value is put into a sync.Pool)
package bug

import "sync"

type replicateTask struct {
	beginLLSN uint64
	data      [][]byte
}

const defaultLengthOfReplicationTaskSlice = 3

var replicateTaskSlicePool = sync.Pool{
	New: func() any {
		return make([]*replicateTask, 0, defaultLengthOfReplicationTaskSlice)
	},
}

func newReplicateTaskSlice() []*replicateTask {
	return replicateTaskSlicePool.Get().([]*replicateTask)
}

func releaseReplicateTaskSlice(rts []*replicateTask) {
	clear(rts)
	rts = rts[0:0]
	replicateTaskSlicePool.Put(rts) // want `nonpointer`
}

type replicator struct {
	queue chan *replicateTask
}

// tasksFor builds one task per backup replica.
func tasksFor(llsn uint64, data [][]byte, replicas int) []*replicateTask {
	rts := newReplicateTaskSlice()
	for i := 0; i < replicas; i++ {
		rts = append(rts, &replicateTask{beginLLSN: llsn, data: data})
	}
	return rts
}

func (r *replicator) send(llsn uint64, data [][]byte, replicas int) {
	rts := tasksFor(llsn, data, replicas)
	for _, rt := range rts {
		r.queue <- rt
	}
	releaseReplicateTaskSlice(rts)
}
