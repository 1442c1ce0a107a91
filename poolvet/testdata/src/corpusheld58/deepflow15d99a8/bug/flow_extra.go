// Source: https://github.com/deepflowio/deepflow/commit/15d99a8adf3873fd532afb6ba484e8831520b886
//
//	"纠正多级指针对象的Release实现" (correct the Release of multi-level
//	pointer objects): "Release时未清空对象中的指针字段" - Release did
//	not clear the pointer fields of the object.
//
// Bug: droplet's flowgenerator ReleaseFlowExtra released the flow's
// *MetaFlowPerf into metaFlowPerfPool but left flowExtra.metaFlowPerf
// pointing at it, then put the FlowExtra into flowExtraPool. initFlow does
// not set metaFlowPerf, and checkIfDoFlowPerf only acquires a new one when
// the field is nil, so the next flow that gets this FlowExtra keeps using a
// MetaFlowPerf that is already back in its pool (and may be handed to
// another flow), and releases it a second time when that flow ends.
// Fix: set flowExtra.metaFlowPerf = nil after ReleaseMetaFlowPerf.
//
// Check: noreset (at flowExtraPool.Put in ReleaseFlowExtra: metaFlowPerf
// still points to the released MetaFlowPerf)
package bug

import (
	"sync"
	"time"
)

// ---- droplet-libs datatype (trimmed) ----

type PolicyData struct{ ActionFlags uint32 }

type TcpPerfStats struct{ RTT, ART time.Duration }

type TaggedFlow struct {
	FlowID     uint64
	PortSrc    uint16
	PortDst    uint16
	StartTime  time.Duration
	PolicyData *PolicyData
	*TcpPerfStats
}

var taggedFlowPool = sync.Pool{
	New: func() interface{} { return new(TaggedFlow) },
}

func AcquireTaggedFlow() *TaggedFlow {
	return taggedFlowPool.Get().(*TaggedFlow)
}

// ---- flowgenerator/flow_perf_quantifier.go + meta_flow_perf.go ----

type FlowPerfCtrlInfo struct{ seqSrc, seqDst uint32 }
type FlowPerfDataInfo struct{ rttSum, artSum time.Duration }

type MetaFlowPerf struct {
	ctrlInfo FlowPerfCtrlInfo
	perfData FlowPerfDataInfo
}

func (p *MetaFlowPerf) resetMetaFlowPerf() {
	*p = MetaFlowPerf{}
}

func Report(p *MetaFlowPerf, reversed bool) *TcpPerfStats {
	if p == nil {
		return nil
	}
	return &TcpPerfStats{RTT: p.perfData.rttSum, ART: p.perfData.artSum}
}

var metaFlowPerfPool = sync.Pool{
	New: func() interface{} { return new(MetaFlowPerf) },
}

func AcquireMetaFlowPerf() *MetaFlowPerf {
	return metaFlowPerfPool.Get().(*MetaFlowPerf)
}

func ReleaseMetaFlowPerf(p *MetaFlowPerf) {
	p.resetMetaFlowPerf()
	metaFlowPerfPool.Put(p)
}

// ---- flowgenerator/flow_extra.go ----

type FlowState int

const (
	FLOW_STATE_RAW FlowState = iota
	FLOW_STATE_ESTABLISHED
	FLOW_STATE_CLOSED
)

type FlowExtra struct {
	taggedFlow   *TaggedFlow
	metaFlowPerf *MetaFlowPerf
	flowState    FlowState
	recentTime   time.Duration
	timeout      time.Duration
	reversed     bool
}

var flowExtraPool = sync.Pool{
	New: func() interface{} {
		return new(FlowExtra)
	},
}

func AcquireFlowExtra() *FlowExtra {
	return flowExtraPool.Get().(*FlowExtra)
}

func ReleaseFlowExtra(flowExtra *FlowExtra) {
	flowExtra.taggedFlow = nil
	if flowExtra.metaFlowPerf != nil {
		ReleaseMetaFlowPerf(flowExtra.metaFlowPerf)
	}
	flowExtraPool.Put(flowExtra) // want `noreset`
}

// ---- flowgenerator/flow_generator.go (trimmed) ----

const FLOW_PERF_ACTION_FLAGS = 0x4

type FlowGenerator struct{}

func (f *FlowGenerator) initFlow(flowID uint64, policy *PolicyData, now time.Duration) *FlowExtra {
	taggedFlow := AcquireTaggedFlow()
	taggedFlow.FlowID = flowID
	taggedFlow.StartTime = now
	taggedFlow.PolicyData = policy

	flowExtra := AcquireFlowExtra()
	flowExtra.taggedFlow = taggedFlow
	flowExtra.flowState = FLOW_STATE_RAW
	flowExtra.recentTime = now
	flowExtra.reversed = false

	return flowExtra
}

func (f *FlowGenerator) checkIfDoFlowPerf(flowExtra *FlowExtra) bool {
	if flowExtra.taggedFlow.PolicyData != nil &&
		flowExtra.taggedFlow.PolicyData.ActionFlags&FLOW_PERF_ACTION_FLAGS > 0 {
		if flowExtra.metaFlowPerf == nil {
			flowExtra.metaFlowPerf = AcquireMetaFlowPerf()
		}
		return true
	}

	return false
}

func (f *FlowGenerator) cleanTimeoutFlow(flowExtra *FlowExtra, out []*TaggedFlow) []*TaggedFlow {
	taggedFlow := flowExtra.taggedFlow
	taggedFlow.TcpPerfStats = Report(flowExtra.metaFlowPerf, flowExtra.reversed)
	ReleaseFlowExtra(flowExtra)
	return append(out, taggedFlow)
}
