// Package bug reproduces the shape of erigontech/erigon#22410
// (https://github.com/erigontech/erigon/pull/22410): pooled task queues were
// put back after tasks = tasks[:0], which only moves the length; the
// backing array still pointed at every old task, and a pointer to the
// caller's source reader stayed set, so parked objects pinned request memory
// and the next user could read old entries past len.
//
// Check: noreset (a reset that forgets fields: a [:0] on a slice of
// pointers and an external pointer left set before the Put).
package bug

import (
	"io"
	"sync"
)

type Task struct{ payload []byte }

type queue struct {
	tasks []*Task
	src   io.Reader
}

var queuePool = sync.Pool{New: func() any { return new(queue) }}

func getQueue(src io.Reader) *queue {
	q := queuePool.Get().(*queue)
	q.src = src
	return q
}

const maxTasks = 1024

func putQueue(q *queue) {
	if cap(q.tasks) > maxTasks {
		return
	}
	q.tasks = q.tasks[:0]
	queuePool.Put(q) // want `noreset|without Reset|not reset|clear|stale|forg`
}

func Run(src io.Reader, n int) int {
	q := getQueue(src)
	for i := 0; i < n; i++ {
		q.tasks = append(q.tasks, &Task{payload: make([]byte, 1<<10)})
	}
	done := len(q.tasks)
	putQueue(q)
	return done
}
