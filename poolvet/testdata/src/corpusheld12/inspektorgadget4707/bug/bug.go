// Package bug reproduces the shape of inspektor-gadget/inspektor-gadget#4707
// (https://github.com/inspektor-gadget/inspektor-gadget/pull/4707): the JSON
// formatter took an encode state (a struct embedding a bytes.Buffer) from a
// package-wide pool, ran its field writers into it, deferred the Put and
// returned the buffer's bytes. Two gadget runners marshalling in parallel got
// the same state back from the pool and overwrote each other's output.
//
// Check: useafterput (alias returned past a deferred, size-guarded Put: the
// slice comes from a method promoted from the embedded buffer of the pooled
// struct). The project's Put had no size guard; it is added here so that
// the case only exercises useafterput.
package bug

import (
	"bytes"
	"strconv"
	"sync"
)

type encodeState struct {
	bytes.Buffer
	scratch [64]byte
}

const maxPooledState = 64 << 10

var bufpool = sync.Pool{New: func() any { return new(encodeState) }}

type Record struct {
	Comm string
	Pid  int64
}

type Formatter struct {
	writers []func(e *encodeState, r *Record)
}

func NewFormatter() *Formatter {
	f := &Formatter{}
	f.writers = append(f.writers,
		func(e *encodeState, r *Record) { e.WriteString(`{"comm":"` + r.Comm + `",`) },
		func(e *encodeState, r *Record) {
			e.WriteString(`"pid":`)
			e.Write(strconv.AppendInt(e.scratch[:0], r.Pid, 10))
			e.WriteByte('}')
		},
	)
	return f
}

func (f *Formatter) Marshal(r *Record) []byte {
	e := bufpool.Get().(*encodeState)
	e.Reset()
	defer func() {
		if e.Cap() <= maxPooledState {
			e.Reset()
			bufpool.Put(e)
		}
	}()
	for _, w := range f.writers {
		w(e, r)
	}
	return e.Bytes() // want `useafterput`
}
