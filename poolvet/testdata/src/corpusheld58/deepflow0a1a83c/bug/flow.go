// Source: https://github.com/deepflowio/deepflow/commit/0a1a83c0665d1da4273f42922b2c679b623b93ec
//
//	"修改一个tcpPerfStats Pool的一个bug" (fix a bug in the tcpPerfStats pool)
//
// Bug: in droplet's datatype package (datatype/flow.go and
// datatype/tagged_flow.go), ReleaseTcpPerfStats zeroed the *TcpPerfStats
// and put it into taggedFlowPool instead of tcpPerfStatsPool ("释放错pool":
// released into the wrong pool). ReleaseTaggedFlow calls
// ReleaseTcpPerfStats for the flow's TcpPerfStats, so taggedFlowPool
// received *TcpPerfStats values and the next AcquireTaggedFlow's
// taggedFlowPool.Get().(*TaggedFlow) panics.
// Fix: ReleaseTcpPerfStats puts into tcpPerfStatsPool.
//
// Check: typemismatch (at the .(*TaggedFlow) assertion in AcquireTaggedFlow:
// taggedFlowPool is also given *TcpPerfStats by ReleaseTcpPerfStats)
package bug

import (
	"fmt"
	"sync"
	"time"
)

// ---- datatype/flow.go (trimmed) ----

type FlowKey struct {
	IPSrc, IPDst     uint32
	PortSrc, PortDst uint16
	Proto            uint8
}

type TcpPerfCountsPeer struct {
	SynRetransCount uint32
	RetransCount    uint32
	ZeroWinCount    uint32
	PshUrgCount     uint32
}

type TcpPerfCountsPeerSrc TcpPerfCountsPeer
type TcpPerfCountsPeerDst TcpPerfCountsPeer

type TcpPerfStats struct {
	RTTSyn time.Duration
	RTT    time.Duration
	ART    time.Duration
	TcpPerfCountsPeerSrc
	TcpPerfCountsPeerDst
	TotalRetransCount      uint32
	TotalZeroWinCount      uint32
	TotalPshUrgCount       uint32
	PacketIntervalAvg      uint64
	PacketIntervalVariance uint64
	PacketSizeVariance     uint64
}

type Flow struct {
	FlowKey

	FlowID    uint64
	StartTime time.Duration
	EndTime   time.Duration

	/* TCP Perf Data */
	*TcpPerfStats
}

var tcpPerfStatsPool = sync.Pool{
	New: func() interface{} { return new(TcpPerfStats) },
}

func AcquireTcpPerfStats() *TcpPerfStats {
	return tcpPerfStatsPool.Get().(*TcpPerfStats)
}

func ReleaseTcpPerfStats(s *TcpPerfStats) {
	*s = TcpPerfStats{}
	taggedFlowPool.Put(s)
}

func CloneTcpPerfStats(s *TcpPerfStats) *TcpPerfStats {
	newTcpPerfStats := AcquireTcpPerfStats()
	*newTcpPerfStats = *s
	return newTcpPerfStats
}

// ---- datatype/tagged_flow.go ----

type Tag struct {
	PolicyData []uint32
}

type TaggedFlow struct {
	Flow
	Tag
}

var taggedFlowPool = sync.Pool{
	New: func() interface{} {
		return new(TaggedFlow)
	},
}

func AcquireTaggedFlow() *TaggedFlow {
	return taggedFlowPool.Get().(*TaggedFlow) // want `typemismatch`
}

func ReleaseTaggedFlow(taggedFlow *TaggedFlow) {
	if taggedFlow.TcpPerfStats != nil {
		ReleaseTcpPerfStats(taggedFlow.TcpPerfStats)
	}
	*taggedFlow = TaggedFlow{}
	taggedFlowPool.Put(taggedFlow)
}

func CloneTaggedFlow(taggedFlow *TaggedFlow) *TaggedFlow {
	newTaggedFlow := AcquireTaggedFlow()
	*newTaggedFlow = *taggedFlow
	if taggedFlow.TcpPerfStats != nil {
		newTaggedFlow.TcpPerfStats = CloneTcpPerfStats(taggedFlow.TcpPerfStats)
	}
	return newTaggedFlow
}

func CloneTaggedFlowHelper(items []interface{}) []interface{} {
	newItems := make([]interface{}, len(items))
	for i, e := range items {
		taggedFlow := e.(*TaggedFlow)
		newItems[i] = CloneTaggedFlow(taggedFlow)
	}
	return newItems
}

func (f *TaggedFlow) String() string {
	return fmt.Sprintf("%d %+v %+v", f.FlowID, f.FlowKey, f.TcpPerfStats)
}
