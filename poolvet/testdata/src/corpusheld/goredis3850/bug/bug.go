// Package bug reproduces the shape of redis/go-redis#3850
// (https://github.com/redis/go-redis/pull/3850): the pipeline's pool stored
// []Cmder slice values directly, so every Put boxed the slice header
// (staticcheck SA6002), and the Put kept command pointers alive in the
// unused capacity.
//
// Check: nonpointer.
package bug

import "sync"

type Cmder interface{ Name() string }

var cmdSlicePool = sync.Pool{New: func() any { return make([]Cmder, 0, 64) }}

func Exec(cmds []Cmder, run func([]Cmder)) {
	batch := cmdSlicePool.Get().([]Cmder)
	batch = append(batch, cmds...)
	run(batch)
	cmdSlicePool.Put(batch[:0]) // want `non-pointer|nonpointer`
}
