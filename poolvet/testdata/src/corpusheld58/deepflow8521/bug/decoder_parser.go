// Source: https://github.com/deepflowio/deepflow/pull/8521
// Commit: https://github.com/deepflowio/deepflow/commit/0ab1a935f6b28187b26e17f058913dc6075ceab6
//
//	"fix: panic when app service tag write failed": "for
//	InProcessProfile item maybe released after executing
//	profileWriterCallback"
//
// Bug: server/ingester/profile/decoder/decoder_parser.go: after building
// the pooled *InProcessProfile items, Parser.rawStackToInProcess (and
// Parser.Put) first called p.profileWriterCallback(inProcess)
// (ProfileWriter.Write, which hands the items to CKWriter.Put; the CK
// writer releases them into poolInProcess, at once when its queue size is
// 0 or later from its writer goroutine) and then read inProcess[0] in
// p.appServiceTagWriterCallback. The profile could already be zeroed and
// back in the pool (or reused), which panicked.
// Fix: call appServiceTagWriterCallback first and profileWriterCallback
// last.
//
// Check: useafterput (at the appServiceTagWriterCallback(inProcess[0]...)
// call after profileWriterCallback released/handed off the items)
package bug

import (
	"errors"
	"sync"
)

// ---- server/libs/pool (trimmed, generic LockFreePool) ----

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

// ---- server/ingester/profile/dbwriter/profile.go (trimmed) ----

const PROFILE_TABLE = "in_process"

type InProcessProfile struct {
	Time         uint32
	AppService   string
	AppInstance  string
	OrgId        uint16
	TeamID       uint16
	ProfileValue int64
	Location     string

	TagNames  []string
	TagValues []string
}

func (p *InProcessProfile) Release() {
	ReleaseInProcess(p)
}

var poolInProcess = NewLockFreePool(func() *InProcessProfile {
	return &InProcessProfile{}
})

func AcquireInProcess() *InProcessProfile {
	l := poolInProcess.Get()
	return l
}

func ReleaseInProcess(p *InProcessProfile) {
	if p == nil {
		return
	}
	tagNames := p.TagNames[:0]
	tagValues := p.TagValues[:0]
	*p = InProcessProfile{}
	p.TagNames = tagNames
	p.TagValues = tagValues
	poolInProcess.Put(p)
}

// ---- server/ingester/profile/dbwriter/profile_writer.go (trimmed) ----

type ProfileWriter struct {
	ckWriter      *CKWriter
	profilesCount int64
}

func (p *ProfileWriter) Write(m []interface{}) {
	p.profilesCount += int64(len(m))
	p.ckWriter.Put(m...)
}

// ---- server/ingester/profile/decoder (trimmed) ----

type AppServiceTagWriter struct {
	written map[string]uint32
}

func (w *AppServiceTagWriter) Write(time uint32, table, appService, appInstance string, orgId, teamId uint16) {
	w.written[table+appService+appInstance] = time
}

type Decoder struct {
	profileWriter       *ProfileWriter
	appServiceTagWriter *AppServiceTagWriter
}

func (d *Decoder) appServiceTagWrite(p *InProcessProfile) {
	if d.appServiceTagWriter == nil {
		return
	}

	if p.AppService == "" && p.AppInstance == "" {
		return
	}

	d.appServiceTagWriter.Write(p.Time, PROFILE_TABLE, p.AppService, p.AppInstance, p.OrgId, p.TeamID)
}

type Parser struct {
	orgId, teamId               uint16
	profileWriterCallback       func(x []interface{})
	appServiceTagWriterCallback func(x *InProcessProfile)
}

func (d *Decoder) newParser() *Parser {
	return &Parser{
		profileWriterCallback:       d.profileWriter.Write,
		appServiceTagWriterCallback: d.appServiceTagWrite,
	}
}

func (p *Parser) stackToInProcess(location string, value uint64, startTime uint32, labels map[string]string) []interface{} {
	tagNames := make([]string, 0, len(labels))
	tagValues := make([]string, 0, len(labels))
	for k, v := range labels {
		tagNames = append(tagNames, k)
		tagValues = append(tagValues, v)
	}
	ret := AcquireInProcess()
	ret.Time = startTime
	ret.AppService = labels["service"]
	ret.AppInstance = labels["instance"]
	ret.OrgId, ret.TeamID = p.orgId, p.teamId
	ret.ProfileValue = int64(value)
	ret.Location = location
	ret.TagNames = append(ret.TagNames, tagNames...)
	ret.TagValues = append(ret.TagValues, tagValues...)

	var writeItems []interface{}
	writeItems = append(writeItems, ret)
	return writeItems
}

// eBPF profiling direct write into db
func (p *Parser) rawStackToInProcess(stack []byte, value uint64, startTime uint32, labels map[string]string) error {
	data := string(stack)
	if len(data) == 0 {
		return errors.New("stack parsing failed")
	}
	// otherwise, do nothing, directly write into db
	inProcess := p.stackToInProcess(data, value, startTime, labels)
	p.profileWriterCallback(inProcess)
	p.appServiceTagWriterCallback(inProcess[0].(*InProcessProfile)) // want `useafterput`
	return nil
}
