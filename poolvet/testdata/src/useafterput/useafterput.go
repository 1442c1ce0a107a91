package useafterput

import (
	"bytes"
	"sync"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var slicePool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

type record struct {
	id   int
	data []byte
}

var recPool = sync.Pool{New: func() any { return new(record) }}

// Bytes aliases the buffer that the deferred Put hands back.
func render(s string) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	buf.WriteString(s)
	return buf.Bytes() // want `returned value shares memory with buf, which the deferred Put at line 26 gives back to the pool`
}

// String copies: fine.
func renderString(s string) string {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	buf.WriteString(s)
	return buf.String()
}

// A sub-slice of *p escapes while the deferred Put runs.
func encode(n int) []byte {
	p := slicePool.Get().(*[]byte)
	defer slicePool.Put(p)
	b := (*p)[:0]
	for i := 0; i < n; i++ {
		b = append(b, byte(i))
	}
	*p = b
	return b[:n] // want `returned value shares memory with p`
}

// A copy of the bytes is fine.
func encodeCopy(n int) []byte {
	p := slicePool.Get().(*[]byte)
	defer slicePool.Put(p)
	b := append((*p)[:0], make([]byte, n)...)
	*p = b
	return bytes.Clone(b)
}

// Fields read after Put.
func fieldAfterPut() int {
	r := recPool.Get().(*record)
	r.id = 7
	recPool.Put(r)
	return r.id // want `r is used after it was put back into the pool at line 65`
}

// Reading before Put is fine.
func fieldBeforePut() int {
	r := recPool.Get().(*record)
	r.id = 7
	id := r.id
	recPool.Put(r)
	return id
}

// Only on the error path.
func errorPath(fail bool) []byte {
	r := recPool.Get().(*record)
	if fail {
		recPool.Put(r)
	}
	return r.data // want `r is used after it was put back into the pool at line 82`
}

// Put on the error path, then return: fine.
func errorPathReturns(fail bool) int {
	r := recPool.Get().(*record)
	if fail {
		recPool.Put(r)
		return 0
	}
	n := len(r.data)
	recPool.Put(r)
	return n
}

// A closure that captured the buffer is called after Put.
func closureAfterPut() {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	write := func(s string) { buf.WriteString(s) }
	write("a")
	bufPool.Put(buf)
	write("b") // want `buf is used after it was put back into the pool`
}

// A goroutine started after Put with the object.
func goAfterPut(done chan<- int) {
	r := recPool.Get().(*record)
	recPool.Put(r)
	go func(r *record) { done <- r.id }(r) // want `r is used after it was put back`
}

// A deferred Put inside a closure: the alias is returned.
func deferClosure() []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		bufPool.Put(buf)
	}()
	buf.WriteString("x")
	return buf.Bytes() // want `returned value shares memory with buf, which the deferred Put at line 120`
}

// A deferred closure that puts only on error: silent.
func deferOnError(fail bool) (*bytes.Buffer, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	var err error
	defer func() {
		if err != nil {
			bufPool.Put(buf)
		}
	}()
	if fail {
		err = errFail
	}
	return buf, err
}

type failErr struct{}

func (failErr) Error() string { return "fail" }

var errFail error = failErr{}

// Typed pool: the slice escapes past Put.
var typed = pool.Pool[*record]{New: func() *record { return new(record) }}

func typedAfterPut() []byte {
	r := typed.Get()
	typed.Put(r)
	return r.data // want `r is used after it was put back`
}

// bytepool: use after Put, and Buffer.Free.
func bytepoolAfterPut() byte {
	b := bytepool.Get(64)
	b[0] = 1
	bytepool.Put(b)
	return b[0] // want `b is used after it was put back`
}

func bufferAfterFree() []byte {
	b := bytepool.GetBuffer()
	b.Write([]byte("hi"))
	defer b.Free()
	return b.Bytes() // want `returned value shares memory with b, which the deferred Put`
}

// Sent on a channel after Put.
func sendAfterPut(ch chan<- *record) {
	r := recPool.Get().(*record)
	recPool.Put(r)
	ch <- r // want `r is used after it was put back`
}

// Reassigned after Put: the new object is fine.
func reassigned() int {
	r := recPool.Get().(*record)
	recPool.Put(r)
	r = recPool.Get().(*record)
	defer recPool.Put(r)
	return r.id
}

// In a loop, each iteration gets its own object: fine.
func loop(n int) {
	for i := 0; i < n; i++ {
		r := recPool.Get().(*record)
		r.id = i
		recPool.Put(r)
	}
}
