// Source: https://github.com/deepflowio/deepflow/commit/285f136440343ab6a9284ad2ea5e1322ed047cc5
//
//	"[server] fix proc event cause panic ##21172": "when event put to
//	writer queue may be released immediately, should not be used"
//
// Bug: EventWriter.Write (server/ingester/event/dbwriter/event_writer.go)
// first handed the pooled *EventStore to CKWriter.Put and then read it in
// e.GenerateNewFlowTags. CKWriter.Put either releases the item at once
// (queueSize == 0: ck.Release() -> ReleaseEventStore -> eventPool.Put) or
// queues it for a writer goroutine that releases it after writing, so the
// EventStore could already be zeroed and back in eventPool (or reused by
// another decoder) while GenerateNewFlowTags walked its
// AttributeNames/AttributeValues, which panicked.
// Fix: generate the flow tags first and call w.ckWriter.Put(e) last.
//
// Check: useafterput (at e.GenerateNewFlowTags after w.ckWriter.Put(e)
// released the event or handed it to the goroutine that releases it)
package fixed

import (
	"sync"
)

// ---- server/libs/pool (trimmed, interface{} LockFreePool) ----

type LockFreePool struct {
	emptyPool *sync.Pool
	fullPool  *sync.Pool
}

func (p *LockFreePool) Get() interface{} {
	elemPool := p.fullPool.Get().(*[]interface{})
	pool := *elemPool
	e := pool[len(pool)-1]
	*elemPool = pool[:len(pool)-1]
	if len(pool) > 1 {
		p.fullPool.Put(elemPool)
	} else {
		p.emptyPool.Put(elemPool)
	}
	return e
}

func (p *LockFreePool) Put(x interface{}) {
	pool := p.emptyPool.Get().(*[]interface{})
	*pool = append(*pool, x)
	if len(*pool) < cap(*pool) {
		p.emptyPool.Put(pool)
	} else {
		p.fullPool.Put(pool)
	}
}

func NewLockFreePool(alloc func() interface{}) *LockFreePool {
	const poolSizePerCPU, initFullPoolSize = 256, 256
	return &LockFreePool{
		emptyPool: &sync.Pool{New: func() interface{} {
			p := make([]interface{}, 0, poolSizePerCPU)
			return &p
		}},
		fullPool: &sync.Pool{New: func() interface{} {
			p := make([]interface{}, initFullPoolSize, poolSizePerCPU)
			for i := range p {
				p[i] = alloc()
			}
			return &p
		}},
	}
}

// ---- server/ingester/pkg/ckwriter (trimmed) ----

type CKItem interface {
	Release()
}

type CKWriter struct {
	queueSize  int
	putCounter int
	dataQueues []chan interface{}
}

func (w *CKWriter) Put(items ...interface{}) {
	if w.queueSize == 0 {
		for _, item := range items {
			if ck, ok := item.(CKItem); ok {
				ck.Release()
			}
		}
		return
	}
	w.putCounter++
	q := w.dataQueues[w.putCounter%len(w.dataQueues)]
	for _, item := range items {
		q <- item
	}
}

func (w *CKWriter) queueProcess(queueID int) {
	for item := range w.dataQueues[queueID] {
		// ... write the block to clickhouse ...
		item.(CKItem).Release()
	}
}

// ---- server/ingester/flow_tag (trimmed) ----

type FlowTagInfo struct {
	Table      string
	FieldName  string
	FieldValue string
	VpcId      int32
}

type FlowTagCache struct {
	FlowTagInfoBuffer FlowTagInfo
	FieldValueCache   map[FlowTagInfo]uint32
	FieldValues       []FlowTagInfo
}

type FlowTagWriter struct {
	Cache *FlowTagCache
}

func (w *FlowTagWriter) WriteFieldsAndFieldValuesInCache() {
	w.Cache.FieldValues = w.Cache.FieldValues[:0]
}

// ---- server/ingester/event/dbwriter/event.go (trimmed) ----

type EventStore struct {
	Time uint32 // s

	StartTime int64
	EndTime   int64

	EventType        string
	EventDescription string

	L3EpcID int32

	AttributeNames  []string
	AttributeValues []string
}

const EVENT_TABLE = "event"

func (e *EventStore) Table() string { return EVENT_TABLE }

func (e *EventStore) Release() {
	ReleaseEventStore(e)
}

func (e *EventStore) GenerateNewFlowTags(cache *FlowTagCache) {
	// reset temporary buffers
	flowTagInfo := &cache.FlowTagInfoBuffer
	*flowTagInfo = FlowTagInfo{
		Table: e.Table(),
		VpcId: e.L3EpcID,
	}
	cache.FieldValues = cache.FieldValues[:0]

	for i, name := range e.AttributeNames {
		flowTagInfo.FieldName = name
		flowTagInfo.FieldValue = e.AttributeValues[i]
		if old, ok := cache.FieldValueCache[*flowTagInfo]; ok && old >= e.Time {
			continue
		}
		cache.FieldValueCache[*flowTagInfo] = e.Time
		cache.FieldValues = append(cache.FieldValues, *flowTagInfo)
	}
}

var eventPool = NewLockFreePool(func() interface{} {
	return &EventStore{
		AttributeNames:  []string{},
		AttributeValues: []string{},
	}
})

func AcquireEventStore() *EventStore {
	return eventPool.Get().(*EventStore)
}

func ReleaseEventStore(e *EventStore) {
	if e == nil {
		return
	}
	attributeNames := e.AttributeNames[:0]
	attributeValues := e.AttributeValues[:0]
	*e = EventStore{}
	e.AttributeNames = attributeNames
	e.AttributeValues = attributeValues

	eventPool.Put(e)
}

// ---- server/ingester/event/dbwriter/event_writer.go ----

type EventWriter struct {
	ckWriter      *CKWriter
	flowTagWriter *FlowTagWriter
}

func (w *EventWriter) Write(e *EventStore) {
	e.GenerateNewFlowTags(w.flowTagWriter.Cache)
	w.flowTagWriter.WriteFieldsAndFieldValuesInCache()
	w.ckWriter.Put(e)
}
