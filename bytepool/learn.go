package bytepool

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/poolkit/pool/internal/sizeclass"
)

// Learning parameters. One Free in a sampling period contributes a sample
// (sampling keeps the shared histogram's cache lines quiet and Free cheap):
// one in sampleEvery until the learner first calibrates, so that a new pool
// learns its start size within about sampleEvery*calibrateEvery Frees, and
// one in sampleEveryCalibrated afterwards. After calibrateEvery samples the
// learner recomputes the start capacity and halves the histogram, so a
// sample's weight halves every calibrateEvery samples (every
// sampleEveryCalibrated*calibrateEvery Frees, 16384, once calibrated) and
// the learner follows a workload that changes.
//
// Each Buffer counts its Frees down to its next sample (Buffer.sample,
// Free, teach). A new Buffer starts at a random phase, so that Buffers freed
// only a few times are sampled at the same rate: in [1, sampleEvery] if it
// comes from spare.New, in [1, current period] if it is a zero Buffer.
const (
	sampleEvery           = 8   // sampling period until the first calibration
	sampleEveryCalibrated = 64  // sampling period after it; at most 255 (Buffer.sample is a uint8)
	calibrateEvery        = 256 // samples between calibrations
	startPercent          = 95  // percentile of peak sizes new Buffers start at
	minStart              = 64  // first storage of a Buffer before anything is learned
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
	// start is the size class of a new Buffer's storage: the class at the
	// startPercent-th percentile of the histogram (that of minStart until
	// calibrated), at most the largest class; nil if the pool has none. A
	// pointer, so that GetBuffer and Free reach the class with one load.
	start atomic.Pointer[class]
	// calibrated is set by the first calibration: sampling then slows
	// down from sampleEvery to sampleEveryCalibrated. Read only by Frees
	// that sample.
	calibrated atomic.Bool
	_          [56]byte // start is read by every GetBuffer and Free; samples is written

	samples atomic.Uint32 // samples since the last calibration

	// hist[c] counts (with decay) the Buffers whose peak length needed
	// class c; hist[len(classes)] those that needed more than MaxSize.
	hist [sizeclass.NumClasses + 1]atomic.Uint32

	mu sync.Mutex // held by calibrate; TryLock'ed so Free never waits
}

// startSize returns the capacity a new Buffer starts with.
func (s *state) startSize() int {
	if c := s.learn.start.Load(); c != nil {
		return c.size
	}
	return minStart
}

// period returns the current sampling period.
func (l *learner) period() uint8 {
	if l.calibrated.Load() {
		return sampleEveryCalibrated
	}
	return sampleEvery
}

// teach is Free's slow path once per sampling period: it records the
// largest length b reached, if any (unwritten Buffers teach nothing), and
// restarts b's countdown. A Buffer whose countdown has not started (sample
// 0: a zero Buffer) first draws a random phase in [1, period], so that
// Buffers freed only a few times are sampled at the same rate as others.
func (b *Buffer) teach() {
	s := b.state()
	every := s.learn.period()
	if b.sample == 0 {
		if b.sample = uint8(rand.IntN(int(every))); b.sample > 0 {
			return // not sampled this time: the countdown starts here
		}
	}
	b.sample = every
	if peak := max(b.peak, len(b.buf)); peak > 0 {
		s.record(peak)
	}
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
	if !l.calibrated.Load() {
		l.calibrated.Store(true) // sample less from now on
	}
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
	if c := &s.classes[class]; l.start.Load() != c {
		l.start.Store(c) // every GetBuffer and Free reads the line
	}
	for i := range n {
		if h := l.hist[i].Load(); h > 1 {
			l.hist[i].Add(-(h / 2))
		}
	}
}
