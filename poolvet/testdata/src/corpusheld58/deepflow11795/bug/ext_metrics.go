// Source: https://github.com/deepflowio/deepflow/pull/11795
// Commit: https://github.com/deepflowio/deepflow/commit/c4713ad1bf6fe9a44bcbfa32a6a2a4a8f544ebdb
//
//	"fix(ingester): clear pooled string slices before reuse"
//
// Bug: ReleaseExtMetrics (server/ingester/ext_metrics/dbwriter/
// ext_metrics.go) returned an *ExtMetrics to the project's LockFreePool
// (a generic pool built on two sync.Pools) after only truncating its
// string slices with [:0]. The backing arrays of TagNames, TagValues and
// MetricsFloatNames still held every tag name/value string of the last
// telegraf point (decoded from the network), so pooled objects kept the
// previous user's data alive and visible in the spare capacity.
// Fix: clear every element to "" before truncating and putting the
// object back (the same change was made for ApplicationLogStore,
// EventStore and L7FlowLog).
//
// Check: noreset (at extMetricsPool.Put in ReleaseExtMetrics: the string
// slices go back to the pool still referencing the last user's strings)
package bug

import (
	"errors"
	"fmt"
	"sync"
)

// ---- server/libs/pool (trimmed) ----

type LockFreePool[T any] struct {
	emptyPool *sync.Pool
	fullPool  *sync.Pool
}

func (p *LockFreePool[T]) Get() T {
	elemPool := p.fullPool.Get().(*[]T) // avoid convT2Eslice
	pool := *elemPool
	e := pool[len(pool)-1]
	*elemPool = pool[:len(pool)-1]
	if len(pool) > 1 {
		p.fullPool.Put(elemPool)
	} else {
		p.emptyPool.Put(elemPool) // Empty, give it back to other CPUs
	}
	return e
}

func (p *LockFreePool[T]) Put(x T) {
	pool := p.emptyPool.Get().(*[]T) // avoid convT2Eslice
	*pool = append(*pool, x)
	if len(*pool) < cap(*pool) {
		p.emptyPool.Put(pool)
	} else {
		p.fullPool.Put(pool) // Full, give it back to other CPUs
	}
}

func NewLockFreePool[T any](alloc func() T) *LockFreePool[T] {
	const poolSizePerCPU = 256
	const initFullPoolSize = 256
	newEmptySlice := func() any {
		p := make([]T, 0, poolSizePerCPU)
		return &p
	}
	newFullSlice := func() any {
		p := make([]T, initFullPoolSize, poolSizePerCPU)
		for i := 0; i < initFullPoolSize; i++ {
			p[i] = alloc()
		}
		return &p
	}
	return &LockFreePool[T]{
		emptyPool: &sync.Pool{New: newEmptySlice},
		fullPool:  &sync.Pool{New: newFullSlice},
	}
}

// ---- server/ingester/ext_metrics/dbwriter/ext_metrics.go ----

type UniversalTag struct {
	VTAPID uint16
	PodID  uint32
	IP     uint32
}

type ExtMetrics struct {
	Timestamp uint32 // s

	UniversalTag UniversalTag

	VTableName string

	OrgId, TeamID uint16

	TagNames  []string
	TagValues []string

	MetricsFloatNames  []string
	MetricsFloatValues []float64
}

var extMetricsPool = NewLockFreePool(func() *ExtMetrics {
	return &ExtMetrics{}
})

func AcquireExtMetrics() *ExtMetrics {
	return extMetricsPool.Get()
}

var emptyUniversalTag = UniversalTag{}

func ReleaseExtMetrics(m *ExtMetrics) {
	m.UniversalTag = emptyUniversalTag
	m.TagNames = m.TagNames[:0]
	m.TagValues = m.TagValues[:0]
	m.MetricsFloatNames = m.MetricsFloatNames[:0]
	m.MetricsFloatValues = m.MetricsFloatValues[:0]
	extMetricsPool.Put(m) // want `noreset`
}

// ---- server/ingester/ext_metrics/decoder/decoder.go (trimmed) ----

type Tag struct{ Key, Value []byte }

type Field struct {
	Key   []byte
	Value float64
	Bad   bool
}

type Point struct {
	Time   uint32
	Name   []byte
	Tags   []Tag
	Fields []Field
}

const VTABLE_PREFIX_TELEGRAF = "influxdb."

type Decoder struct{ orgId, teamId uint16 }

func (d *Decoder) PointToExtMetrics(vtapID uint16, point Point) (*ExtMetrics, error) {
	m := AcquireExtMetrics()
	m.Timestamp = point.Time
	tableName := string(point.Name)
	m.VTableName = VTABLE_PREFIX_TELEGRAF + tableName
	m.OrgId, m.TeamID = d.orgId, d.teamId
	m.UniversalTag.VTAPID = vtapID
	for _, tag := range point.Tags {
		m.TagNames = append(m.TagNames, string(tag.Key))
		m.TagValues = append(m.TagValues, string(tag.Value))
	}

	for _, f := range point.Fields {
		if len(f.Key) == 0 {
			continue
		}
		if f.Bad {
			ReleaseExtMetrics(m)
			return nil, fmt.Errorf("table %s unable to unmarshal field %s: %w", tableName, string(f.Key), errors.New("bad value"))
		}
		m.MetricsFloatNames = append(m.MetricsFloatNames, string(f.Key))
		m.MetricsFloatValues = append(m.MetricsFloatValues, f.Value)
	}
	return m, nil
}
