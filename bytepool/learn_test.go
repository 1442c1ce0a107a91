package bytepool

import (
	"math"
	"strings"
	"testing"
)

// samplesOver frees a caller-owned Buffer of p (never dropped by the engine,
// unlike pooled ones under the race detector) n times, writing to it before
// each Free, and returns how many samples the learner received. It runs on
// a pool whose calibration is fixed by the caller, and stops short of a
// calibration (which would reset the count).
func samplesOver(t *testing.T, p *Pool, n int) int {
	t.Helper()
	s := p.state()
	b := &Buffer{s: s}
	before := s.learn.samples.Load()
	for range n {
		b.WriteString("sampled")
		b.Free()
	}
	got := int(s.learn.samples.Load() - before)
	if got >= calibrateEvery {
		t.Fatalf("%d samples reached a calibration; keep n below %d periods", got, calibrateEvery)
	}
	return got
}

// TestLearnerSamplingPeriod checks that one Free in sampleEvery is sampled
// until the first calibration and one in sampleEveryCalibrated afterwards.
func TestLearnerSamplingPeriod(t *testing.T) {
	const periods = calibrateEvery / 2
	var fresh Pool
	if got := samplesOver(t, &fresh, periods*sampleEvery); got < periods-1 || got > periods+1 {
		t.Errorf("before calibration: %d samples in %d Frees; want %d±1", got, periods*sampleEvery, periods)
	}
	var calibrated Pool
	calibrated.state().learn.calibrated.Store(true)
	if got := samplesOver(t, &calibrated, periods*sampleEveryCalibrated); got < periods-1 || got > periods+1 {
		t.Errorf("after calibration: %d samples in %d Frees; want %d±1", got, periods*sampleEveryCalibrated, periods)
	}
}

// TestLearnerZeroBufferPhase checks that a zero Buffer freed once teaches
// the learner with probability 1/period: its countdown starts at a random
// phase, not at a fixed one that would sample every such Buffer or none.
func TestLearnerZeroBufferPhase(t *testing.T) {
	for _, calibrated := range []bool{false, true} {
		var p Pool
		s := p.state()
		s.learn.calibrated.Store(calibrated)
		period := int(s.learn.period())
		const buffers = 20000
		sampled := 0
		for range buffers {
			b := &Buffer{s: s}
			b.WriteByte('x')
			b.Free()
			switch {
			case int(b.sample) == period:
				sampled++ // taught on its first Free: the countdown restarted
			case b.sample < 1 || int(b.sample) >= period:
				t.Fatalf("period %d: countdown %d after a first Free; want in [1, %d]", period, b.sample, period)
			}
			if s.learn.samples.Load() >= calibrateEvery-1 {
				s.learn.samples.Store(0) // keep calibrate (and its flag) out of the way
			}
		}
		// Binomial(20000, 1/period): more than 5 standard deviations off
		// does not happen by chance.
		want := float64(buffers) / float64(period)
		if sd := 5 * math.Sqrt(want); float64(sampled) < want-sd || float64(sampled) > want+sd {
			t.Errorf("period %d: %d of %d zero Buffers taught on their first Free; want about %.0f", period, sampled, buffers, want)
		}
	}
}

// TestLearnerFreshPoolLearnsQuickly checks that a new pool learns its start
// size within about sampleEvery*calibrateEvery Frees (the dense sampling
// before the first calibration), and samples sparsely afterwards.
func TestLearnerFreshPoolLearnsQuickly(t *testing.T) {
	var p Pool
	s := p.state()
	line := strings.Repeat("x", 1000)
	const limit = 2 * sampleEvery * calibrateEvery // twice the expected Frees: random drops under -race cost reuse, not rate
	frees := 0
	for ; frees < limit && !s.learn.calibrated.Load(); frees++ {
		b := p.GetBuffer()
		b.WriteString(line)
		b.Free()
	}
	if !s.learn.calibrated.Load() {
		t.Fatalf("no calibration after %d Frees", frees)
	}
	if got := s.startSize(); got < len(line) || got > 2*len(line) {
		t.Errorf("start size after %d Frees = %d; want in [%d, %d]", frees, got, len(line), 2*len(line))
	}
	if b := p.GetBuffer(); b.Cap() < len(line) {
		t.Errorf("new Buffer after learning: Cap %d; want >= %d", b.Cap(), len(line))
	} else {
		b.Free()
	}
}
