package unbounded

import "sync"

// A Put whose function bounds some slice fields of the pooled struct but
// not another that the package appends to (grafana/mimir#7935).

type seriesRec struct {
	labels    []string
	samples   []float64
	exemplars []float64
}

var seriesRecPool = sync.Pool{New: func() any { return new(seriesRec) }}

func (s *seriesRec) decode(labels []string, samples, exemplars []float64) {
	s.labels = append(s.labels, labels...)
	s.samples = append(s.samples, samples...)
	s.exemplars = append(s.exemplars, exemplars...)
}

func clearExemplars(s *seriesRec) {
	s.exemplars = s.exemplars[:0]
}

func reuseSeriesRec(s *seriesRec) {
	if cap(s.labels) > 64 {
		s.labels = nil
	} else {
		s.labels = s.labels[:0]
	}
	if cap(s.samples) > 1024 {
		s.samples = nil
	} else {
		s.samples = s.samples[:0]
	}
	clearExemplars(s)
	seriesRecPool.Put(s) // want `unbounded`
}

func clearExemplarsBounded(s *seriesRec) {
	if cap(s.exemplars) > 16 {
		s.exemplars = nil
		return
	}
	s.exemplars = s.exemplars[:0]
}

func reuseSeriesRecBounded(s *seriesRec) {
	if cap(s.labels) > 64 {
		s.labels = nil
	} else {
		s.labels = s.labels[:0]
	}
	if cap(s.samples) > 1024 {
		s.samples = nil
	} else {
		s.samples = s.samples[:0]
	}
	clearExemplarsBounded(s)
	seriesRecPool.Put(s)
}

func reuseSeriesRecDropped(s *seriesRec) {
	if cap(s.labels) > 64 {
		s.labels = nil
	} else {
		s.labels = s.labels[:0]
	}
	if cap(s.samples) > 1024 {
		s.samples = nil
	} else {
		s.samples = s.samples[:0]
	}
	s.exemplars = nil
	seriesRecPool.Put(s)
}
