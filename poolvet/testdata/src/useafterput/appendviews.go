package useafterput

import "sync"

// A method that returns series whose label slices are views of the
// pooled scratch buffer (VictoriaMetrics/VictoriaMetrics#4849): the series
// must not outlive the Put of the scratch.

type lblPair struct{ name, value string }

type seriesOut struct{ labels []lblPair }

type relabelScratch struct{ labels []lblPair }

var relabelScratchPool = sync.Pool{New: func() any { return new(relabelScratch) }}

func putRelabelScratch(r *relabelScratch) {
	if cap(r.labels) > 4096 {
		return
	}
	clear(r.labels)
	r.labels = r.labels[:0]
	relabelScratchPool.Put(r)
}

// withExtra returns ss with each series' labels rewritten into r's buffer.
func (r *relabelScratch) withExtra(ss []seriesOut, extra lblPair) []seriesOut {
	out := ss[:0]
	labels := r.labels[:0]
	for i := range ss {
		k := len(labels)
		labels = append(labels, ss[i].labels...)
		labels = append(labels, extra)
		out = append(out, seriesOut{labels: labels[k:]})
	}
	r.labels = labels
	return out
}

// withExtraCopy returns series with labels of their own.
func (r *relabelScratch) withExtraCopy(ss []seriesOut, extra lblPair) []seriesOut {
	out := ss[:0]
	labels := r.labels[:0]
	for i := range ss {
		k := len(labels)
		labels = append(labels, ss[i].labels...)
		labels = append(labels, extra)
		out = append(out, seriesOut{labels: append([]lblPair(nil), labels[k:]...)})
	}
	r.labels = labels
	return out
}

func pushRelabelled(ss []seriesOut) {}

func relabelThenPush(ss []seriesOut, extra lblPair) {
	r := relabelScratchPool.Get().(*relabelScratch)
	ss = r.withExtra(ss, extra)
	putRelabelScratch(r)
	pushRelabelled(ss) // want `useafterput`
}

func relabelSometimesThenPush(ss []seriesOut, extra *lblPair) {
	if extra != nil {
		r := relabelScratchPool.Get().(*relabelScratch)
		ss = r.withExtra(ss, *extra)
		putRelabelScratch(r)
	}
	pushRelabelled(ss) // want `useafterput`
}

func relabelPushThenPut(ss []seriesOut, extra lblPair) {
	r := relabelScratchPool.Get().(*relabelScratch)
	defer putRelabelScratch(r)
	ss = r.withExtra(ss, extra)
	pushRelabelled(ss)
}

func relabelCopyThenPush(ss []seriesOut, extra lblPair) {
	r := relabelScratchPool.Get().(*relabelScratch)
	ss = r.withExtraCopy(ss, extra)
	putRelabelScratch(r)
	pushRelabelled(ss)
}
