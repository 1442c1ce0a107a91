// Package bug reproduces the shape of phuslu/log commit 4501c9a
// (https://github.com/phuslu/log/commit/4501c9a5b8f65d5a538e452fb16f46b1c3da971f):
// Entry.Interface borrows a *bb scratch buffer from bbpool, lets a json.Encoder
// write the value into it through bb.Write (which appends, so the buffer grows
// to the size of the value), copies the result into the entry and puts the
// scratch buffer back unconditionally. Every other Put in the logger checks the
// capacity against bbcap; this one did not, so a single huge logged value pins
// a huge buffer in the pool. The fix guards the Put with cap(b.B) <= bbcap.
//
// Check: unbounded (at bbpool.Put in Entry.Interface).
package bug

import (
	"encoding/json"
	"fmt"
	"sync"
)

const bbcap = 1 << 16

type Entry struct {
	buf []byte
}

var epool = sync.Pool{
	New: func() any {
		return &Entry{buf: make([]byte, 0, 1024)}
	},
}

func NewEntry() *Entry {
	e := epool.Get().(*Entry)
	e.buf = e.buf[:0]
	return e
}

func (e *Entry) Bytes() []byte { return e.buf }

// Free returns the entry to its pool, dropping oversized ones.
func (e *Entry) Free() {
	if cap(e.buf) <= bbcap {
		epool.Put(e)
	}
}

type bb struct {
	B []byte
}

func (b *bb) Write(p []byte) (int, error) {
	b.B = append(b.B, p...)
	return len(p), nil
}

var bbpool = sync.Pool{
	New: func() any {
		return &bb{B: make([]byte, 0, 512)}
	},
}

var escapes = func() (t [256]bool) {
	for i := 0; i < 0x20; i++ {
		t[i] = true
	}
	t['"'] = true
	t['\\'] = true
	return
}()

func (e *Entry) bytes(b []byte) {
	for _, c := range b {
		if escapes[c] {
			for _, c := range b {
				if escapes[c] {
					e.buf = append(e.buf, '\\', c)
				} else {
					e.buf = append(e.buf, c)
				}
			}
			return
		}
	}
	e.buf = append(e.buf, b...)
}

// Interface adds the field key with i marshaled using reflection.
func (e *Entry) Interface(key string, i any) *Entry {
	if e == nil {
		return nil
	}

	e.buf = append(e.buf, ',', '"')
	e.buf = append(e.buf, key...)
	e.buf = append(e.buf, '"', ':')
	b := bbpool.Get().(*bb)
	b.B = b.B[:0]
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(i)
	if err != nil {
		b.B = b.B[:0]
		fmt.Fprintf(b, `marshaling error: %+v`, err)
		e.buf = append(e.buf, '"')
		e.bytes(b.B)
		e.buf = append(e.buf, '"')
	} else {
		b.B = b.B[:len(b.B)-1]
		e.buf = append(e.buf, b.B...)
	}
	bbpool.Put(b) // want `unbounded`

	return e
}
