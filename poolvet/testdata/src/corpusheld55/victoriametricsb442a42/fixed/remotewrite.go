// Source: https://github.com/VictoriaMetrics/VictoriaMetrics/commit/b442a42d8e798df6c74ee9934eeb2983f5128ab9
// ("app/vmagent/remotewrite: return proper value from `tssRelabelPool.New`";
// updates https://github.com/VictoriaMetrics/VictoriaMetrics/issues/599).
//
// Bug: the data race fix for multiple -remoteWrite.urlRelabelConfig options
// (a730b3f6a1) made remoteWriteCtx.Push copy the series into a buffer from
// tssRelabelPool. Push asserts tssRelabelPool.Get().(*[]prompbmarshal.TimeSeries)
// and Puts a *[]TimeSeries back, but tssRelabelPool.New returns a plain
// []prompbmarshal.TimeSeries{}, so whenever the pool is empty the type
// assertion panics.
//
// Fix: New returns a pointer to the slice: a := []TimeSeries{}; return &a.
//
// Check: typemismatch (Get asserts *[]TimeSeries while New stores a
// []TimeSeries)
package fixed

import (
	"sync"
	"sync/atomic"
)

// ---- lib/prompbmarshal ----

type Label struct {
	Name  string
	Value string
}

type Sample struct {
	Value     float64
	Timestamp int64
}

type TimeSeries struct {
	Labels  []Label
	Samples []Sample
}

// ResetTimeSeries clears all the GC references from tss and returns an empty tss ready for further use.
func ResetTimeSeries(tss []TimeSeries) []TimeSeries {
	for i := range tss {
		ts := tss[i]
		ts.Labels = nil
		ts.Samples = nil
	}
	return tss[:0]
}

// ---- app/vmagent/remotewrite ----

type relabelCtx struct {
	// pool for labels, which are used during the relabeling.
	labels []Label
}

func (rctx *relabelCtx) applyRelabeling(tss []TimeSeries, prcs []func([]Label) []Label) []TimeSeries {
	tssDst := tss[:0]
	labels := rctx.labels[:0]
	for i := range tss {
		ts := &tss[i]
		labelsLen := len(labels)
		labels = append(labels, ts.Labels...)
		for _, prc := range prcs {
			labels = append(labels[:labelsLen], prc(labels[labelsLen:])...)
		}
		if len(labels) == labelsLen {
			// Drop the current time series, since relabeling removed all the labels.
			continue
		}
		tssDst = append(tssDst, TimeSeries{
			Labels:  labels[labelsLen:],
			Samples: ts.Samples,
		})
	}
	rctx.labels = labels
	return tssDst
}

var relabelCtxPool = &sync.Pool{
	New: func() interface{} {
		return &relabelCtx{}
	},
}

func getRelabelCtx() *relabelCtx {
	return relabelCtxPool.Get().(*relabelCtx)
}

func putRelabelCtx(rctx *relabelCtx) {
	rctx.labels = rctx.labels[:0]
	relabelCtxPool.Put(rctx)
}

type pendingSeries struct {
	mu  sync.Mutex
	tss []TimeSeries
}

func (ps *pendingSeries) Push(tss []TimeSeries) {
	ps.mu.Lock()
	ps.tss = append(ps.tss, tss...)
	ps.mu.Unlock()
}

type remoteWriteCtx struct {
	idx        int
	pss        []*pendingSeries
	pssNextIdx uint64

	relabelMetricsDropped int64
}

var perURLRelabelConfigs [][]func([]Label) []Label

func (rwctx *remoteWriteCtx) Push(tss []TimeSeries) {
	var rctx *relabelCtx
	var v *[]TimeSeries
	prcs := perURLRelabelConfigs[rwctx.idx]
	if len(prcs) > 0 {
		rctx = getRelabelCtx()
		// Make a copy of tss before applying relabeling in order to prevent
		// from affecting time series for other remoteWrite.url configs.
		v = tssRelabelPool.Get().(*[]TimeSeries)
		tss = append(*v, tss...)
		tssLen := len(tss)
		tss = rctx.applyRelabeling(tss, prcs)
		atomic.AddInt64(&rwctx.relabelMetricsDropped, int64(tssLen-len(tss)))
	}
	pss := rwctx.pss
	idx := atomic.AddUint64(&rwctx.pssNextIdx, 1) % uint64(len(pss))
	pss[idx].Push(tss)
	if rctx != nil {
		*v = ResetTimeSeries(tss)
		tssRelabelPool.Put(v)
		putRelabelCtx(rctx)
	}
}

var tssRelabelPool = &sync.Pool{
	New: func() interface{} {
		a := []TimeSeries{}
		return &a
	},
}
