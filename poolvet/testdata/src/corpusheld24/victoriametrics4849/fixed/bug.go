// Package bug is the fixed twin of VictoriaMetrics/VictoriaMetrics#4849
// (https://github.com/VictoriaMetrics/VictoriaMetrics/pull/4849): vmagent's pushInternal adds
// the global -remoteWrite.label labels with a pooled relabelCtx. appendExtraLabels rewrites
// every series so that its Labels slice points into rctx.labels, but the context was handed
// back with putRelabelCtx(rctx) right after the call, before the series were pushed to the
// pending queue. A concurrent push could take the same context from the pool and overwrite the
// labels of series that were still being serialized. The fix defers putRelabelCtx until after
// the push.
// Check: useafterput (none expected here).
package bug

import (
	"sort"
	"sync"
	"sync/atomic"
)

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

type relabelCtx struct {
	// pool for labels, which are used during the relabeling.
	labels []Label
}

const maxPooledLabels = 64 * 1024

func (rctx *relabelCtx) reset() {
	for i := range rctx.labels {
		rctx.labels[i] = Label{}
	}
	rctx.labels = rctx.labels[:0]
}

var relabelCtxPool = &sync.Pool{
	New: func() any {
		return &relabelCtx{}
	},
}

func getRelabelCtx() *relabelCtx {
	return relabelCtxPool.Get().(*relabelCtx)
}

func putRelabelCtx(rctx *relabelCtx) {
	if cap(rctx.labels) > maxPooledLabels {
		return
	}
	rctx.reset()
	relabelCtxPool.Put(rctx)
}

func getLabelByName(labels []Label, name string) *Label {
	for i := range labels {
		if labels[i].Name == name {
			return &labels[i]
		}
	}
	return nil
}

// appendExtraLabels returns series whose Labels are sub-slices of rctx.labels.
func (rctx *relabelCtx) appendExtraLabels(tss []TimeSeries, extraLabels []Label) []TimeSeries {
	if len(extraLabels) == 0 {
		return tss
	}
	tssDst := tss[:0]
	labels := rctx.labels[:0]
	for i := range tss {
		ts := &tss[i]
		labelsLen := len(labels)
		labels = append(labels, ts.Labels...)
		for _, extraLabel := range extraLabels {
			tmp := getLabelByName(labels[labelsLen:], extraLabel.Name)
			if tmp != nil {
				tmp.Value = extraLabel.Value
			} else {
				labels = append(labels, extraLabel)
			}
		}
		added := labels[labelsLen:]
		sort.Slice(added, func(a, b int) bool { return added[a].Name < added[b].Name })
		tssDst = append(tssDst, TimeSeries{
			Labels:  labels[labelsLen:],
			Samples: ts.Samples,
		})
	}
	rctx.labels = labels
	return tssDst
}

// pendingSeries marshals pushed series into the next remote-write block.
type pendingSeries struct {
	mu    sync.Mutex
	block []byte
}

func (ps *pendingSeries) Push(tss []TimeSeries) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, ts := range tss {
		for _, l := range ts.Labels {
			ps.block = append(ps.block, l.Name...)
			ps.block = append(ps.block, '=')
			ps.block = append(ps.block, l.Value...)
			ps.block = append(ps.block, ',')
		}
		ps.block = append(ps.block, '\n')
	}
}

var labelsGlobal []Label

type remoteWriteCtx struct {
	pss        []*pendingSeries
	pssNextIdx uint64
}

func (rwctx *remoteWriteCtx) pushInternal(tss []TimeSeries) {
	if len(labelsGlobal) > 0 {
		rctx := getRelabelCtx()
		defer putRelabelCtx(rctx)
		tss = rctx.appendExtraLabels(tss, labelsGlobal)
	}

	pss := rwctx.pss
	idx := atomic.AddUint64(&rwctx.pssNextIdx, 1) % uint64(len(pss))
	pss[idx].Push(tss)
}

// Push is the entry point for series scraped or received by vmagent.
func (rwctx *remoteWriteCtx) Push(tss []TimeSeries) {
	rwctx.pushInternal(tss)
}
