// Source: https://github.com/DataDog/datadog-agent/pull/44096
// ("[CWS] Fix corrupted replay events", merged as commit
// c4600b762657e0ffdafd90cb0c19e5de3d8a06c6; pkg/security/probe/probe_ebpf.go,
// the eBPF runtime-security probe of system-probe).
//
// Bug: EBPFProbe.playSnapshot replays the process cache snapshot as events.
// Each event comes from p.eventPool (a typed sync.Pool wrapper) through
// newEBPFPooledEventFromPCE / newBindEventFromSnapshot, which only set the
// fields they need. After dispatching, the loop released the process cache
// entry and put the event straight back into the pool without zeroing it, so
// the next replayed event taken from the pool still carried the previous
// event's state (Error set for a broken lineage, Bind fields, stale
// ProcessCacheEntry/ProcessContext pointers): "dirty" events from the pool
// leading to corrupted events.
//
// Fix: add EBPFProbe.resetEvent (release the process cache entry, zero the
// event with probeEventZeroer, restore FieldHandlers) and call it before
// putting the event back into the pool.
//
// Check: noreset (at p.eventPool.Put(event) in playSnapshot: the event goes
// back to the pool with the fields of its last use)
package fixed

import (
	"net"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// TypedPool mirrors pkg/util/sync.TypedPool.
type TypedPool[T any] struct {
	p sync.Pool
}

func NewDefaultTypedPool[T any]() *TypedPool[T] {
	return &TypedPool[T]{p: sync.Pool{New: func() any { return new(T) }}}
}

func (p *TypedPool[T]) Get() *T  { return p.p.Get().(*T) }
func (p *TypedPool[T]) Put(x *T) { p.p.Put(x) }

type EventType uint32

const (
	ExecEventType EventType = iota + 1
	ForkEventType
	BindEventType
)

type CGroupContext struct{ CGroupID string }

type Process struct {
	Pid         uint32
	ContainerID string
	CGroup      CGroupContext
	ExecTime    time.Time
}

type ProcessContext struct {
	Process
}

const ProcessCacheEntryFromSnapshot = 2

type ProcessCacheEntry struct {
	ProcessContext
	refCount    atomic.Int64
	IsExec      bool
	Source      int
	ContainerID string
	CGroup      CGroupContext
}

func (e *ProcessCacheEntry) Retain()  { e.refCount.Add(1) }
func (e *ProcessCacheEntry) Release() { e.refCount.Add(-1) }

type ErrProcessBrokenLineage struct{ Err error }

func (e *ErrProcessBrokenLineage) Error() string { return e.Err.Error() }

func (e *ProcessCacheEntry) HasValidLineage() (bool, error) { return true, nil }

type SnapshottedBoundSocket struct {
	IP       net.IP
	Port     uint16
	Family   uint16
	Protocol uint16
}

type IPPortContext struct {
	IPNet net.IPNet
	Port  uint16
}

type BindEvent struct {
	Retval     int64
	AddrFamily uint16
	Addr       IPPortContext
	Protocol   uint16
}

type ExecEvent struct {
	Process *Process
}

type FieldHandlers struct{}

type Event struct {
	Type              uint32
	TimestampRaw      uint64
	Error             error
	ProcessCacheEntry *ProcessCacheEntry
	ProcessContext    *ProcessContext
	CGroupContext     *CGroupContext
	FieldHandlers     *FieldHandlers
	Exec              ExecEvent
	Bind              BindEvent
}

type EBPFProbe struct {
	eventPool              *TypedPool[Event]
	fieldHandlers          *FieldHandlers
	entries                []*ProcessCacheEntry
	snapshottedBoundSocket map[uint32][]SnapshottedBoundSocket
	dispatched             []string
}

func (p *EBPFProbe) Walk(callback func(*ProcessCacheEntry)) {
	for _, e := range p.entries {
		callback(e)
	}
}

func (p *EBPFProbe) DispatchEvent(event *Event, notifyConsumers bool) {
	if event.Error != nil {
		p.dispatched = append(p.dispatched, "error: "+event.Error.Error())
		return
	}
	p.dispatched = append(p.dispatched, event.Bind.Addr.IPNet.String())
}

// PlaySnapshot plays a snapshot
func (p *EBPFProbe) playSnapshot(notifyConsumers bool) {
	var events []*Event

	entryToEvent := func(entry *ProcessCacheEntry) {
		if entry.Source != ProcessCacheEntryFromSnapshot {
			return
		}
		entry.Retain()

		event := p.newEBPFPooledEventFromPCE(entry)

		if _, err := entry.HasValidLineage(); err != nil {
			event.Error = &ErrProcessBrokenLineage{Err: err}
		}

		events = append(events, event)

		snapshotBoundSockets, ok := p.snapshottedBoundSocket[event.ProcessContext.Pid]
		if ok {
			for _, s := range snapshotBoundSockets {
				entry.Retain()
				bindEvent := p.newBindEventFromSnapshot(entry, s)
				events = append(events, bindEvent)
			}
		}
	}

	p.Walk(entryToEvent)

	// order events so that they're dispatched in creation time order
	sort.Slice(events, func(i, j int) bool {
		tsA := events[i].ProcessContext.ExecTime
		tsB := events[j].ProcessContext.ExecTime
		if tsA.IsZero() || tsB.IsZero() || tsA.Equal(tsB) {
			return events[i].ProcessContext.Pid < events[j].ProcessContext.Pid
		}
		return tsA.Before(tsB)
	})

	for _, event := range events {
		p.DispatchEvent(event, notifyConsumers)
		p.resetEvent(event)
		p.eventPool.Put(event)
	}
}

func probeEventZeroer(event *Event) {
	*event = Event{}
}

func (p *EBPFProbe) resetEvent(event *Event) {
	if event.ProcessCacheEntry != nil {
		event.ProcessCacheEntry.Release()
	}
	probeEventZeroer(event)
	event.FieldHandlers = p.fieldHandlers
}

// newEBPFPooledEventFromPCE returns a new event from a process cache entry
func (p *EBPFProbe) newEBPFPooledEventFromPCE(entry *ProcessCacheEntry) *Event {
	eventType := ExecEventType
	if !entry.IsExec {
		eventType = ForkEventType
	}

	event := p.eventPool.Get()

	event.Type = uint32(eventType)
	event.TimestampRaw = uint64(time.Now().UnixNano())
	event.ProcessCacheEntry = entry
	event.ProcessContext = &entry.ProcessContext
	event.Exec.Process = &entry.Process
	event.ProcessContext.Process.ContainerID = entry.ContainerID
	event.ProcessContext.Process.CGroup = entry.CGroup
	event.CGroupContext = &entry.CGroup

	return event
}

// newBindEventFromSnapshot returns a new bind event with a process context
func (p *EBPFProbe) newBindEventFromSnapshot(entry *ProcessCacheEntry, snapshottedBind SnapshottedBoundSocket) *Event {
	event := p.eventPool.Get()
	event.TimestampRaw = uint64(time.Now().UnixNano())
	event.Type = uint32(BindEventType)
	event.ProcessCacheEntry = entry
	event.ProcessContext = &entry.ProcessContext
	event.ProcessContext.Process.ContainerID = entry.ContainerID
	event.ProcessContext.Process.CGroup = entry.CGroup

	event.Bind.Retval = 0
	event.Bind.AddrFamily = snapshottedBind.Family
	event.Bind.Addr.IPNet.IP = snapshottedBind.IP
	event.Bind.Protocol = snapshottedBind.Protocol
	if snapshottedBind.Family == 2 {
		event.Bind.Addr.IPNet.Mask = net.CIDRMask(32, 32)
	} else {
		event.Bind.Addr.IPNet.Mask = net.CIDRMask(128, 128)
	}
	event.Bind.Addr.Port = snapshottedBind.Port

	return event
}
