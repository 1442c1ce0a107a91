package bytepool

import (
	"sync"
	"sync/atomic"

	"github.com/poolkit/pool/internal/sizeclass"
)

// Learning parameters. One Free in sampleEvery, chosen at random, contributes
// a sample (sampling keeps the shared histogram's cache lines quiet); after
// calibrateEvery samples the learner recomputes the start capacity and
// halves the histogram, so a sample's weight halves every calibrateEvery
// samples and the learner follows a workload that changes.
const (
	sampleEvery    = 8
	calibrateEvery = 256
	startPercent   = 95 // percentile of peak sizes new Buffers start at
	minStart       = 64 // first storage of a Buffer before anything is learned
)

// learner learns the capacity new Buffers should start with.
//
// It records, for Buffers being freed, the size class that the largest
// length the Buffer reached needed. It records that need, not the capacity
// the Buffer ends with: a Buffer started at the learned size would report
// that size back and the learner could never come down again. And it records
// the largest length, not the length at Free, because callers Reset a Buffer
// before they are done with it (valyala/bytebufferpool measures length at
// Put and so learns from emptied buffers).
type learner struct {
	// class is the size class of a new Buffer's storage: the class at the
	// startPercent-th percentile of the histogram (that of minStart until
	// calibrated), at most the largest class; -1 if the pool has none.
	class atomic.Int32
	_     [60]byte // class is read by every GetBuffer; samples is written

	samples atomic.Uint32 // samples since the last calibration

	// hist[c] counts (with decay) the Buffers whose peak length needed
	// class c; hist[len(classes)] those that needed more than MaxSize.
	hist [sizeclass.NumClasses + 1]atomic.Uint32

	mu sync.Mutex // held by calibrate; TryLock'ed so Free never waits
}

// startSize returns the capacity a new Buffer starts with.
func (s *state) startSize() int {
	if c := s.learn.class.Load(); c >= 0 {
		return sizeclass.Size(int(c))
	}
	return minStart
}

// record adds the peak length of a freed Buffer to the histogram, and
// recalibrates after calibrateEvery records.
func (s *state) record(peak int) {
	l := &s.learn
	i := len(s.classes)
	if peak <= s.maxSize {
		i = sizeclass.Ceil(peak)
	}
	l.hist[i].Add(1)
	if l.samples.Add(1) >= calibrateEvery {
		s.calibrate()
	}
}

// calibrate sets start from the histogram and halves it (slow path, once
// every calibrateEvery samples). Increments that race with the halving may
// be lost; the histogram is a statistic, not a count.
func (s *state) calibrate() {
	l := &s.learn
	if !l.mu.TryLock() {
		return // another Free is calibrating
	}
	defer l.mu.Unlock()
	if l.samples.Load() < calibrateEvery {
		return // calibrated while we waited for the lock
	}
	l.samples.Store(0)
	n := len(s.classes) + 1
	var total uint64
	for i := range n {
		total += uint64(l.hist[i].Load())
	}
	want := (total*startPercent + 99) / 100
	var sum uint64
	class := n - 2 // the largest class, if the percentile is above MaxSize
	for i := range n - 1 {
		sum += uint64(l.hist[i].Load())
		if sum >= want {
			class = i
			break
		}
	}
	l.class.Store(int32(class))
	for i := range n {
		if h := l.hist[i].Load(); h > 1 {
			l.hist[i].Add(-(h / 2))
		}
	}
}
