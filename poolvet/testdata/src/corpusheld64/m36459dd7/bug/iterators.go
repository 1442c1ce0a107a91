package bug

import "io"

// RawMetric is a raw encoded aggregated metric.
type RawMetric struct {
	data []byte
}

// NewRawMetric creates a raw metric.
func NewRawMetric(data []byte) *RawMetric { return &RawMetric{data: data} }

// Reset resets the raw data.
func (m *RawMetric) Reset(data []byte) { m.data = data }

// Policy is a storage policy.
type Policy struct {
	Resolution int64
	Retention  int64
}

// AggregatedIteratorPool pools aggregated iterators.
type AggregatedIteratorPool interface {
	Init(alloc func() *aggregatedIterator)
	Get() *aggregatedIterator
	Put(it *aggregatedIterator)
}

type aggregatedIteratorPool struct {
	ch    chan *aggregatedIterator
	alloc func() *aggregatedIterator
}

// NewAggregatedIteratorPool creates a pool.
func NewAggregatedIteratorPool(size int) AggregatedIteratorPool {
	return &aggregatedIteratorPool{ch: make(chan *aggregatedIterator, size)}
}

func (p *aggregatedIteratorPool) Init(alloc func() *aggregatedIterator) { p.alloc = alloc }

func (p *aggregatedIteratorPool) Get() *aggregatedIterator {
	select {
	case it := <-p.ch:
		return it
	default:
		return p.alloc()
	}
}

func (p *aggregatedIteratorPool) Put(it *aggregatedIterator) {
	select {
	case p.ch <- it:
	default:
	}
}

// aggregatedIterator is an iterator for decoding aggregated metrics
type aggregatedIterator struct {
	iteratorBase

	iteratorPool AggregatedIteratorPool // pool for aggregated iterators
	closed       bool                   // whether the iterator is closed
	metric       *RawMetric             // current raw metric
	policy       Policy                 // current policy
}

// NewAggregatedIterator creates a new aggregated iterator
func NewAggregatedIterator(reader io.Reader, pool AggregatedIteratorPool) *aggregatedIterator {
	return &aggregatedIterator{
		iteratorBase: newBaseIterator(reader),
		metric:       NewRawMetric(nil),
		iteratorPool: pool,
	}
}

func (it *aggregatedIterator) Err() error { return it.err() }

func (it *aggregatedIterator) Reset(reader io.Reader) {
	it.closed = false
	it.reset(reader)
}

func (it *aggregatedIterator) Value() (*RawMetric, Policy) {
	return it.metric, it.policy
}

func (it *aggregatedIterator) Next() bool {
	if it.err() != nil || it.closed {
		return false
	}
	it.metric.Reset(it.decodeBytes())
	it.policy = Policy{Resolution: it.decodeVarint(), Retention: it.decodeVarint()}
	return it.err() == nil
}

func (it *aggregatedIterator) Close() {
	if it.closed {
		return
	}
	it.closed = true
	if it.iteratorPool != nil {
		it.iteratorPool.Put(it) // want `noreset`
	}
}

// VersionedPolicies is a list of policies with a version.
type VersionedPolicies struct {
	Version  int64
	policies []Policy
}

// Reset clears the policies.
func (vp *VersionedPolicies) Reset() {
	vp.Version = 0
	vp.policies = nil
}

// Metric is an unaggregated metric.
type Metric struct {
	ID    []byte
	Value int64
}

// Reset clears the metric.
func (m *Metric) Reset() {
	m.ID = nil
	m.Value = 0
}

// UnaggregatedIteratorPool pools unaggregated iterators.
type UnaggregatedIteratorPool interface {
	Get() *unaggregatedIterator
	Put(it *unaggregatedIterator)
}

type unaggregatedIterator struct {
	iteratorBase

	iteratorPool      UnaggregatedIteratorPool
	closed            bool
	metric            Metric
	versionedPolicies VersionedPolicies
}

func (it *unaggregatedIterator) Reset(reader io.Reader) {
	it.closed = false
	it.reset(reader)
}

func (it *unaggregatedIterator) Next() bool {
	if it.err() != nil || it.closed {
		return false
	}
	it.metric.ID = it.decodeBytes()
	it.metric.Value = it.decodeVarint()
	it.versionedPolicies.Version = it.decodeVarint()
	it.versionedPolicies.policies = append(it.versionedPolicies.policies[:0],
		Policy{Resolution: it.decodeVarint(), Retention: it.decodeVarint()})
	return it.err() == nil
}

func (it *unaggregatedIterator) Close() {
	if it.closed {
		return
	}
	it.closed = true
	if it.iteratorPool != nil {
		it.iteratorPool.Put(it) // want `noreset`
	}
}
