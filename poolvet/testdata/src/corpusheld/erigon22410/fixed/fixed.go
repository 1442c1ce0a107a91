// Package fixed is the fix of erigontech/erigon#22410
// (https://github.com/erigontech/erigon/pull/22410): clear the whole slice
// of pointers and nil the external reader before the Put.
package fixed

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
	clear(q.tasks[:cap(q.tasks)])
	q.tasks = q.tasks[:0]
	q.src = nil
	queuePool.Put(q)
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
