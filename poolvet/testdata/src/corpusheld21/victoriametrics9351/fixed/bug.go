// Package bug reproduces the shape of VictoriaMetrics/VictoriaMetrics#9351
// (https://github.com/VictoriaMetrics/VictoriaMetrics/pull/9351, issue #9350):
// the `quantiles` output of stream aggregation keeps a pooled histogram in a
// per-series value. pushSample lazily takes one from the pool, and flush hands
// it back to the pool at the end of every interval, but never clears the
// field. The value keeps the histogram, the next interval keeps feeding it,
// and the next flush puts the very same histogram back a second time, so two
// series can end up sharing one histogram taken from the pool.
//
// Fixed twin (the project's fix): flush clears the field right after putting
// the histogram back, so the next interval takes a fresh one from the pool.
//
// Check: doubleput (none expected here).
package bug

import (
	"strconv"
	"sync"
)

// fastHistogram stands in for valyala/histogram.Fast.
type fastHistogram struct {
	samples []float64
}

func (h *fastHistogram) Update(v float64) { h.samples = append(h.samples, v) }

func (h *fastHistogram) Reset() { h.samples = h.samples[:0] }

func (h *fastHistogram) Quantiles(dst, phis []float64) []float64 {
	for _, phi := range phis {
		if len(h.samples) == 0 {
			dst = append(dst, 0)
			continue
		}
		idx := int(phi * float64(len(h.samples)-1))
		dst = append(dst, h.samples[idx])
	}
	return dst
}

var fastPool = sync.Pool{
	New: func() any { return &fastHistogram{} },
}

func getFast() *fastHistogram { return fastPool.Get().(*fastHistogram) }

func putFast(h *fastHistogram) {
	if h == nil || cap(h.samples) > 1<<16 {
		return
	}
	h.Reset()
	fastPool.Put(h)
}

type flushCtx struct {
	out []string
}

func (ctx *flushCtx) appendSeriesWithExtraLabel(key, suffix string, value float64, name, label string) {
	ctx.out = append(ctx.out, key+":"+suffix+"{"+name+"="+label+"} "+strconv.FormatFloat(value, 'g', -1, 64))
}

type quantilesAggrConfig struct {
	phis      []float64
	quantiles []float64
	b         []byte
}

// quantilesAggrValue is kept per output series across aggregation intervals.
type quantilesAggrValue struct {
	h *fastHistogram
}

func (av *quantilesAggrValue) pushSample(value float64) {
	if av.h == nil {
		av.h = getFast()
	}
	av.h.Update(value)
}

func (av *quantilesAggrValue) flush(ac *quantilesAggrConfig, ctx *flushCtx, key string) {
	if av.h != nil {
		ac.quantiles = av.h.Quantiles(ac.quantiles[:0], ac.phis)
		putFast(av.h)
		av.h = nil
	}
	for i, quantile := range ac.quantiles {
		ac.b = strconv.AppendFloat(ac.b[:0], ac.phis[i], 'g', -1, 64)
		ctx.appendSeriesWithExtraLabel(key, "quantiles", quantile, "quantile", string(ac.b))
	}
}

// Run drives two aggregation intervals for one series.
func Run(values []float64) []string {
	ac := &quantilesAggrConfig{phis: []float64{0.5, 0.99}}
	av := &quantilesAggrValue{}
	ctx := &flushCtx{}
	for interval := 0; interval < 2; interval++ {
		for _, v := range values {
			av.pushSample(v)
		}
		av.flush(ac, ctx, "requests_duration")
	}
	return ctx.out
}
