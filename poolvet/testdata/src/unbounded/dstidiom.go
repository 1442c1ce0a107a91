package unbounded

import "sync"

type bodyBuf struct{ B []byte }

var bodyBufs = sync.Pool{New: func() any { return new(bodyBuf) }}

// A scrape body read with the dst idiom through a function value
// (body.B, err = read(body.B[:0])): the buffer grows to the largest
// response, and the Put keeps it (VictoriaMetrics c14dafc).
type target struct {
	read    func(dst []byte) ([]byte, error)
	lastLen int
}

func (t *target) scrape() error {
	body := bodyBufs.Get().(*bodyBuf)
	var err error
	body.B, err = t.read(body.B[:0])
	t.lastLen = len(body.B)
	body.B = body.B[:0]
	bodyBufs.Put(body) // want `body \(\*bodyBuf\) is put into the pool without a capacity check, and its field B grows without bound \(scrape has a function value append to it\)`
	return err
}

// The fix: big bodies are dropped.
type bodyBufFixed struct{ B []byte }

var bodyBufsFixed = sync.Pool{New: func() any { return new(bodyBufFixed) }}

func (t *target) scrapeFixed() error {
	body := bodyBufsFixed.Get().(*bodyBufFixed)
	var err error
	body.B, err = t.read(body.B[:0])
	t.lastLen = len(body.B)
	if cap(body.B) > 1<<20 {
		return err
	}
	body.B = body.B[:0]
	bodyBufsFixed.Put(body)
	return err
}
