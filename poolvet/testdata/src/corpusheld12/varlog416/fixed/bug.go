// Package fixed is the fixed twin of varlog416: the slice is wrapped in a
// struct and the pool stores pointers to it, so Put boxes nothing
// (kakao/varlog#416). The elements are cleared before truncating so the
// idle wrapper keeps no task alive.
package fixed

import "sync"

type replicateTask struct {
	beginLLSN uint64
	data      [][]byte
}

const defaultLengthOfReplicationTaskSlice = 3

type replicateTaskSlice struct {
	tasks []*replicateTask
}

var replicateTaskSlicePool = sync.Pool{
	New: func() any {
		return &replicateTaskSlice{
			tasks: make([]*replicateTask, 0, defaultLengthOfReplicationTaskSlice),
		}
	},
}

func newReplicateTaskSlice() *replicateTaskSlice {
	return replicateTaskSlicePool.Get().(*replicateTaskSlice)
}

func releaseReplicateTaskSlice(rts *replicateTaskSlice) {
	clear(rts.tasks)
	rts.tasks = rts.tasks[0:0]
	replicateTaskSlicePool.Put(rts)
}

type replicator struct {
	queue chan *replicateTask
}

// tasksFor builds one task per backup replica.
func tasksFor(llsn uint64, data [][]byte, replicas int) *replicateTaskSlice {
	rts := newReplicateTaskSlice()
	for i := 0; i < replicas; i++ {
		rts.tasks = append(rts.tasks, &replicateTask{beginLLSN: llsn, data: data})
	}
	return rts
}

func (r *replicator) send(llsn uint64, data [][]byte, replicas int) {
	rts := tasksFor(llsn, data, replicas)
	for _, rt := range rts.tasks {
		r.queue <- rt
	}
	releaseReplicateTaskSlice(rts)
}
