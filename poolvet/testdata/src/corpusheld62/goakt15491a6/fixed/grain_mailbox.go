package fixed

import (
	"sync"
	"sync/atomic"
)

type GrainContext struct {
	message any
}

type inboxNode struct {
	value *GrainContext
	next  atomic.Pointer[inboxNode]
}

var inboxNodePool = sync.Pool{New: func() any { return new(inboxNode) }}

type grainMailbox struct {
	head  atomic.Pointer[inboxNode] // consumer only
	_pad1 [64]byte
	tail  atomic.Pointer[inboxNode] // producers only
	_pad2 [64]byte
}

func newGrainMailbox() *grainMailbox {
	dummy := inboxNodePool.Get().(*inboxNode)
	dummy.next.Store(nil)
	dummy.value = nil
	m := &grainMailbox{}
	m.head.Store(dummy)
	m.tail.Store(dummy)
	return m
}

// Enqueue places the given value in the mailbox
func (m *grainMailbox) Enqueue(value *GrainContext) {
	n := inboxNodePool.Get().(*inboxNode)
	n.value = value

	prev := m.tail.Swap(n)
	prev.next.Store(n)
}

// Dequeue takes the mail from the mailbox
// Returns nil if the mailbox is empty. Can be used in a single consumer (goroutine) only.
func (m *grainMailbox) Dequeue() *GrainContext {
	head := m.head.Load()
	next := head.next.Load()

	if next == nil {
		return nil
	}

	m.head.Store(next)
	value := next.value

	// Return old head to pool for reuse
	head.next.Store(nil)
	inboxNodePool.Put(head)
	return value
}

// Len returns mailbox length
func (m *grainMailbox) Len() int64 {
	h := m.head.Load()
	n := h.next.Load()
	var count int64
	for n != nil {
		count++
		n = n.next.Load()
	}
	return count
}

// IsEmpty returns true when the mailbox is empty
func (m *grainMailbox) IsEmpty() bool {
	head := m.head.Load()
	return head.next.Load() == nil
}
