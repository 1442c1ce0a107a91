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

// ---- hand-offs before the Put ----

func consume(r *record)       {}
func consumeBytes(b []byte)   {}
func later(f func())          {}
func releaseRecord(r *record) { recPool.Put(r) }

// A goroutine still running when the object goes back.
func goBeforePut() {
	r := recPool.Get().(*record)
	go consume(r)
	recPool.Put(r) // want `r is put back into the pool while a goroutine started at line \d+ may still use it`
}

// A goroutine closure that captured an alias of the object.
func goClosureBeforePut() {
	buf := bufPool.Get().(*bytes.Buffer)
	b := buf.Bytes()
	go func() { consumeBytes(b) }()
	bufPool.Put(buf) // want `buf is put back into the pool while a goroutine started at line \d+ may still use it`
}

// Waiting for the goroutine first: fine.
func goWaitGroup() {
	r := recPool.Get().(*record)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		consume(r)
	}()
	wg.Wait()
	recPool.Put(r)
}

// Waiting on one path only: the other path is reported.
func goWaitOnOnePath(wait bool) {
	r := recPool.Get().(*record)
	done := make(chan struct{})
	go func() {
		consume(r)
		close(done)
	}()
	if wait {
		<-done
	}
	recPool.Put(r) // want `r is put back into the pool while a goroutine started at line \d+ may still use it`
}

// The goroutine owns the object and puts it back itself: fine.
func goOwns() {
	r := recPool.Get().(*record)
	go releaseRecord(r)
}

// A goroutine that gets only a copy of a field: fine.
func goCopiesField() {
	r := recPool.Get().(*record)
	go func(id int) { _ = id }(r.id)
	recPool.Put(r)
}

// Sent on a channel, then put back at once.
func sendBeforePut(ch chan<- []byte) {
	r := recPool.Get().(*record)
	ch <- r.data
	recPool.Put(r) // want `r is put back into the pool while the receiver of the channel send at line \d+ may still use it`
}

// Sent, then the receiver hands it back before the Put: fine.
func sendThenReceive(work chan *record, done chan *record) {
	r := recPool.Get().(*record)
	work <- r
	r = <-done
	recPool.Put(r)
}

// A select with a default that puts the object when it was not sent: fine.
func selectDefault(ch chan *record) {
	r := recPool.Get().(*record)
	select {
	case ch <- r:
	default:
		recPool.Put(r)
	}
}

// Locking before the Put orders the other user: fine.
func lockBeforePut(mu *sync.Mutex, ch chan *record) {
	r := recPool.Get().(*record)
	ch <- r
	mu.Lock()
	recPool.Put(r)
	mu.Unlock()
}

// Stored in a package-level variable and then put back.
var lastRecord *record

func storeGlobalBeforePut() {
	r := recPool.Get().(*record)
	lastRecord = r
	recPool.Put(r) // want `r is put back into the pool while package-level lastRecord \(stored there at line \d+\) may still use it`
}

// Appended to a package-level slice and then put back (an outside test
// found this form missed while lastRecord = r was reported).
var allRecords []*record

func appendGlobalBeforePut() {
	r := recPool.Get().(*record)
	allRecords = append(allRecords, r)
	recPool.Put(r) // want `r is put back into the pool while package-level allRecords \(stored there at line \d+\) may still use it`
}

// The elements of a slice appended with ... are copied: not retained.
var allBytes []byte

func appendBytesBeforePut() {
	b := slicePool.Get().(*[]byte)
	allBytes = append(allBytes, (*b)...)
	slicePool.Put(b)
}

type conn struct {
	cur  *record
	keep *record
}

// Stored in a field of the receiver and left there.
func (c *conn) storeFieldBeforePut() {
	r := recPool.Get().(*record)
	c.keep = r
	recPool.Put(r) // want `r is put back into the pool while c.keep \(stored there at line \d+\) may still use it`
}

// Parked in a field of the receiver and cleared before the Put: fine.
func (c *conn) parkAndClear() {
	r := recPool.Get().(*record)
	c.cur = r
	consume(c.cur)
	c.cur = nil
	recPool.Put(r)
}

// A field of another parameter, as in cmd.Stdout = buf: not reported.
func storeParamField(c *conn) {
	r := recPool.Get().(*record)
	c.keep = r
	recPool.Put(r)
}

// A closure stored in a package-level variable outlives the Put.
var onClose func()

func closureOutlives() {
	r := recPool.Get().(*record)
	onClose = func() { consume(r) }
	recPool.Put(r) // want `r is put back into the pool while package-level onClose \(stored there at line \d+\) may still use it`
}

// A closure handed to an unknown function: unsure, silent.
func closureToUnknown() {
	r := recPool.Get().(*record)
	later(func() { consume(r) })
	recPool.Put(r)
}

// A deferred Put with a goroutine nobody waits for.
func deferGo() {
	r := recPool.Get().(*record)
	defer recPool.Put(r)
	go consume(r) // want `r is handed to a goroutine here, but the deferred Put at line \d+ gives it back to the pool when the function returns`
}

// A deferred Put with a deferred Wait registered after it: Wait runs first.
func deferGoWait() {
	r := recPool.Get().(*record)
	defer recPool.Put(r)
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Add(1)
	go func() {
		defer wg.Done()
		consume(r)
	}()
}

// A deferred Put, with the goroutine joined before return: fine.
func deferGoJoined() {
	r := recPool.Get().(*record)
	defer recPool.Put(r)
	done := make(chan struct{})
	go func() {
		consume(r)
		close(done)
	}()
	<-done
}

// A deferred closure Puts whatever buf holds when the function returns;
// setting buf to nil keeps the exposed buffer out of the pool (the fix of
// go-mysql#729). The error path returns nil: nothing shared, even though
// the result slot it loads is also written by the other path.
func readKeepsBuffer(fill func(*bytes.Buffer) error) ([]byte, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	defer func() {
		if buf != nil {
			bufPool.Put(buf)
		}
	}()
	if err := fill(buf); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	buf = nil
	return out, nil
}

// The same without buf = nil: the success path returns pooled memory.
func readLeaksBuffer(fill func(*bytes.Buffer) error) ([]byte, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	defer func() {
		bufPool.Put(buf)
	}()
	if err := fill(buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil // want `returned value shares memory with buf, which the deferred Put at line \d+ gives back to the pool`
}

// A closure with a deferred Put stores an alias into a variable of the
// enclosing function, which reads it after the closure returned
// (valyala/fasthttp#955).
func capturedAlias(retry func(func() error) error) []byte {
	var body []byte
	_ = retry(func() error {
		buf := bufPool.Get().(*bytes.Buffer)
		buf.Reset()
		defer bufPool.Put(buf)
		buf.WriteString("x")
		body = buf.Bytes() // want `handed to captured variable body, which outlives the call here, but the deferred Put`
		return nil
	})
	return body
}

// A copy into the captured variable is fine.
func capturedCopy(retry func(func() error) error) []byte {
	var body []byte
	_ = retry(func() error {
		buf := bufPool.Get().(*bytes.Buffer)
		buf.Reset()
		defer bufPool.Put(buf)
		buf.WriteString("x")
		body = append([]byte(nil), buf.Bytes()...)
		return nil
	})
	return body
}

// The pooled object's own variable is captured: storing into it is not a
// hand-off.
func capturedOwnVariable() {
	var buf *bytes.Buffer
	func() {
		buf = bufPool.Get().(*bytes.Buffer)
		buf.Reset()
		defer bufPool.Put(buf)
		buf.WriteString("x")
	}()
}
