// Source: https://github.com/Tochemey/goakt/commit/15491a63eebfe2eb12e49d67841e5096e9c5cc70
// ("fix: fix wrong pool used for grain inbox").
//
// Bug: goakt has two lock-free MPSC mailboxes, each with its own node pool:
// DefaultMailbox uses mpscNodePool (*mpscNode) and grainMailbox uses
// inboxNodePool (*inboxNode). grainMailbox.Dequeue returned its old head
// node, an *inboxNode, to mpscNodePool. The next DefaultMailbox that took a
// node from mpscNodePool and asserted *mpscNode panicked.
// Fix: grainMailbox.Dequeue puts the node back into inboxNodePool.
// Check: typemismatch (the *mpscNode assertions on mpscNodePool.Get, which
// can receive the *inboxNode that grain_mailbox.go puts there)
package bug

import (
	"sync"
	"sync/atomic"
)

type ReceiveContext struct {
	message any
}

type Mailbox interface {
	Enqueue(msg *ReceiveContext) error
	Dequeue() (msg *ReceiveContext)
	IsEmpty() bool
	Len() int64
	Dispose()
}

// mpscNode defines a node for the MPSC queue specialized for *ReceiveContext.
type mpscNode struct {
	next atomic.Pointer[mpscNode]
	data *ReceiveContext
}

// Single global pool for mpscNode to avoid per-op allocations.
var mpscNodePool = sync.Pool{New: func() any { return new(mpscNode) }}

// DefaultMailbox is the default unbounded, lock-free mailbox.
type DefaultMailbox struct {
	head  atomic.Pointer[mpscNode] // consumer only
	_pad1 [64]byte
	tail  atomic.Pointer[mpscNode] // producers only
	_pad2 [64]byte
}

var _ Mailbox = (*DefaultMailbox)(nil)

// NewDefaultMailbox creates and initializes a DefaultMailbox instance.
func NewDefaultMailbox() *DefaultMailbox {
	dummy := mpscNodePool.Get().(*mpscNode) // want `typemismatch`
	dummy.next.Store(nil)
	dummy.data = nil
	m := &DefaultMailbox{}
	m.head.Store(dummy)
	m.tail.Store(dummy)
	return m
}

// Enqueue places the given value in the mailbox. Never blocks; always returns nil.
func (m *DefaultMailbox) Enqueue(value *ReceiveContext) error {
	n := mpscNodePool.Get().(*mpscNode) // want `typemismatch`
	n.data = value

	prev := m.tail.Swap(n)
	prev.next.Store(n)
	return nil
}

// Dequeue removes and returns the value at the head of the mailbox.
func (m *DefaultMailbox) Dequeue() *ReceiveContext {
	head := m.head.Load()
	next := head.next.Load()

	if next == nil {
		return nil
	}

	m.head.Store(next)
	value := next.data

	// Return old head to pool for reuse
	head.next.Store(nil)
	mpscNodePool.Put(head)
	return value
}

// Len returns a best-effort snapshot of the number of messages in the mailbox.
func (m *DefaultMailbox) Len() int64 {
	h := m.head.Load()
	n := h.next.Load()
	var count int64
	for n != nil {
		count++
		n = n.next.Load()
	}
	return count
}

// IsEmpty returns true when the mailbox is empty.
func (m *DefaultMailbox) IsEmpty() bool {
	head := m.head.Load()
	return head.next.Load() == nil
}

// Dispose releases resources if needed. No-op for this mailbox.
func (m *DefaultMailbox) Dispose() {}
