// Package fixed is the fix of redis/go-redis#3850
// (https://github.com/redis/go-redis/pull/3850): pool *[]Cmder and clear the
// slice up to its capacity before the Put.
package fixed

import "sync"

type Cmder interface{ Name() string }

var cmdSlicePool = sync.Pool{New: func() any { s := make([]Cmder, 0, 64); return &s }}

func Exec(cmds []Cmder, run func([]Cmder)) {
	bp := cmdSlicePool.Get().(*[]Cmder)
	batch := append((*bp)[:0], cmds...)
	run(batch)
	if cap(batch) > 1024 {
		return
	}
	clear(batch[:cap(batch)])
	*bp = batch[:0]
	cmdSlicePool.Put(bp)
}
