// Package stdlike holds pool uses modelled on fmt, encoding/json and
// net/http, which are correct but for encoding/json's unbounded pool
// (golang/go#27735): poolvet must say nothing else here, whichever checks
// are on.
package stdlike

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"sync"
)

// fmt: pp.free guards the buffer size, clears fields and puts p back.
type pp struct {
	buf   []byte
	arg   any
	wrapE bool
}

var ppFree = sync.Pool{New: func() any { return new(pp) }}

func newPrinter() *pp {
	p := ppFree.Get().(*pp)
	p.wrapE = false
	return p
}

func (p *pp) free() {
	if cap(p.buf) > 64*1024 {
		p.buf = nil
	} else {
		p.buf = p.buf[:0]
	}
	p.arg = nil
	ppFree.Put(p)
}

func Sprint(a any) string {
	p := newPrinter()
	p.arg = a
	p.buf = append(p.buf, "x"...)
	s := string(p.buf)
	p.free()
	return s
}

func Fprint(w io.Writer, a any) (n int, err error) {
	p := newPrinter()
	p.arg = a
	n, err = w.Write(p.buf)
	p.free()
	return
}

// encoding/json: encodeState embeds a bytes.Buffer; newEncodeState resets;
// Marshal copies the bytes before the deferred Put. The pool keeps
// encodeStates of any size: golang/go#27735 ("encoding/json: incorrect
// usage of sync.Pool", NeedsFix; kubernetes/kubernetes#114276), so this one
// shape of std is reported.
type encodeState struct {
	bytes.Buffer
	ptrLevel uint
}

var encodeStatePool sync.Pool

func newEncodeState() *encodeState {
	if v := encodeStatePool.Get(); v != nil {
		e := v.(*encodeState)
		e.Reset()
		e.ptrLevel = 0
		return e
	}
	return new(encodeState)
}

func Marshal(v any) ([]byte, error) {
	e := newEncodeState()
	defer encodeStatePool.Put(e) // want `e \(\*encodeState\) is put into the pool without a capacity check, and its field Buffer grows without bound`
	e.WriteString(strconv.Quote("v"))
	buf := append([]byte(nil), e.Bytes()...)
	return buf, nil
}

// encoding/json scanner: the returned error is a field value, not memory
// the pool reuses.
type scanner struct {
	step  func(*scanner, byte) int
	err   error
	bytes int64
}

var scannerPool = sync.Pool{New: func() any { return &scanner{} }}

func newScanner() *scanner {
	scan := scannerPool.Get().(*scanner)
	scan.bytes = 0
	return scan
}

func freeScanner(scan *scanner) {
	if len(strconv.Itoa(int(scan.bytes))) > 1024 {
		return
	}
	scannerPool.Put(scan)
}

func checkValid(data []byte) error {
	scan := newScanner()
	defer freeScanner(scan)
	for range data {
		if scan.err != nil {
			return scan.err
		}
	}
	return nil
}

// net/http: bufio readers and writers are reset on both sides.
var bufioReaderPool sync.Pool

func newBufioReader(r io.Reader) *bufio.Reader {
	if v := bufioReaderPool.Get(); v != nil {
		br := v.(*bufio.Reader)
		br.Reset(r)
		return br
	}
	return bufio.NewReader(r)
}

func putBufioReader(br *bufio.Reader) {
	br.Reset(nil)
	bufioReaderPool.Put(br)
}

func serve(r io.Reader) (string, error) {
	br := newBufioReader(r)
	line, err := br.ReadString('\n')
	putBufioReader(br)
	return line, err
}

// net/http copyBufPool: fixed-size buffers, pointer stored.
var copyBufPool = sync.Pool{New: func() any { b := make([]byte, 32*1024); return &b }}

func copyBody(dst io.Writer, src io.Reader) (int64, error) {
	bufp := copyBufPool.Get().(*[]byte)
	defer copyBufPool.Put(bufp)
	return io.CopyBuffer(dst, src, *bufp)
}

// A worker hands the object to a goroutine and waits before putting it.
func waitThenPut(work func(*pp)) {
	p := newPrinter()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		work(p)
	}()
	wg.Wait()
	p.free()
}
