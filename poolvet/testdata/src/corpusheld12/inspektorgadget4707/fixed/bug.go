// Package fixed is inspektor-gadget/inspektor-gadget#4707 after the fix:
// Marshal hands the caller its own copy of the encoded bytes, so the encode
// state can go back to the pool. The pool only keeps states whose buffer
// stayed small.
package fixed

import (
	"bytes"
	"strconv"
	"sync"
)

const maxPooledState = 64 << 10

type encodeState struct {
	bytes.Buffer
	scratch [64]byte
}

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
	return bytes.Clone(e.Bytes())
}
