package unbounded

import "sync"

var pduPool sync.Pool

// Each caller re-points New at the size it wants (gostor/gotgt#85).
func newPDU(size int) *[]byte {
	pduPool.New = func() any {
		b := make([]byte, size)
		return &b
	}
	return pduPool.Get().(*[]byte)
}

func releasePDU(b *[]byte) {
	pduPool.Put(b) // want `b \(\*\[\]byte\) is put into the pool without a capacity check`
}

type sample struct {
	t int64
	v float64
}

var samplePool sync.Pool

// On a miss the getter makes the caller's size (prometheus/prometheus#7555).
func getSamples(n int) *[]sample {
	if p, ok := samplePool.Get().(*[]sample); ok {
		return p
	}
	s := make([]sample, 0, n)
	return &s
}

func putSamples(p *[]sample) {
	*p = (*p)[:0]
	samplePool.Put(p) // want `p \(\*\[\]sample\) is put into the pool without a capacity check`
}

var pointsPool sync.Pool

func getPoints(n int) []sample {
	if p, ok := pointsPool.Get().([]sample); ok {
		return p
	}
	return make([]sample, 0, n)
}

func putPoints(p []sample) {
	pointsPool.Put(p[:0]) // want `is put into the pool without a capacity check`
}

var fixedPool sync.Pool

// A getter with one size, and a bounded Put: silent.
func getFixed() []sample {
	if p, ok := fixedPool.Get().([]sample); ok {
		return p
	}
	return make([]sample, 0, 64)
}

func putFixed(p []sample) {
	if cap(p) <= 1024 {
		fixedPool.Put(p[:0]) // want
	}
}
