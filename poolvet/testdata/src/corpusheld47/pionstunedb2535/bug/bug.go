// Package bug reproduces the shape of pion/stun commit edb2535
// (https://github.com/pion/stun/commit/edb2535d64d089bfb2bca6221470a7ef4f415628,
// "client: fix some data races discovered during bench"): client
// transactions are pooled; putClientTransaction, called from Client.delete and
// from the agent callback once a transaction is finished, put the
// *clientTransaction back with its id, start time, attempt counter and raw
// request bytes of the finished transaction still in it. The fix clears those
// fields in putClientTransaction before the Put.
// The same commit fixed a use after Put in the retransmission path of
// handleAgentCallback: on a write error c.delete(t.id) hands t back to the
// pool (through putClientTransaction), and t.id is then read again to stop the
// agent transaction; the fix copies id and raw before starting.
// Check: noreset (reported at the Put in putClientTransaction) and useafterput
// (reported at the read of t.id after c.delete put t back).
package bug

import (
	"errors"
	"sync"
	"time"
)

type transactionID [12]byte

// Event is a transaction result.
type Event struct {
	TransactionID transactionID
	Error         error
}

// Handler handles a transaction event.
type Handler func(e Event)

type clientTransaction struct {
	id      transactionID
	attempt int32
	h       Handler
	start   time.Time
	rto     time.Duration
	raw     []byte
}

var clientTransactionPool = &sync.Pool{
	New: func() interface{} {
		return &clientTransaction{
			raw: make([]byte, 1500),
		}
	},
}

func acquireClientTransaction() *clientTransaction {
	return clientTransactionPool.Get().(*clientTransaction)
}

// maxRawCapacity bounds the request buffer kept by pooled transactions.
const maxRawCapacity = 4096

func putClientTransaction(t *clientTransaction) {
	if cap(t.raw) > maxRawCapacity {
		return
	}
	clientTransactionPool.Put(t) // want `noreset`
}

func (t clientTransaction) nextTimeout(now time.Time) time.Time {
	return now.Add(time.Duration(t.attempt) * t.rto)
}

// Client is a STUN client.
type Client struct {
	mux         sync.RWMutex
	t           map[transactionID]*clientTransaction
	maxAttempts int32
	rto         time.Duration
	write       func(b []byte) error
	stop        func(id transactionID) error
}

var errTransactionExists = errors.New("transaction exists with same id")

func (c *Client) delete(id transactionID) {
	c.mux.Lock()
	if c.t != nil {
		t, ok := c.t[id]
		if ok {
			putClientTransaction(t)
		}
		delete(c.t, id)
	}
	c.mux.Unlock()
}

// start registers t in the transaction table.
func (c *Client) start(t *clientTransaction) error {
	c.mux.Lock()
	defer c.mux.Unlock()
	if _, exists := c.t[t.id]; exists {
		return errTransactionExists
	}
	c.t[t.id] = t
	return nil
}

func (c *Client) handleAgentCallback(e Event) {
	c.mux.Lock()
	t, found := c.t[e.TransactionID]
	if found {
		delete(c.t, t.id)
	}
	c.mux.Unlock()
	if !found {
		return
	}
	h := t.h
	if c.maxAttempts <= t.attempt || e.Error == nil {
		// Transaction completed.
		putClientTransaction(t)
		h(e)
		return
	}
	// Doing re-transmission.
	t.attempt++
	if startErr := c.start(t); startErr != nil {
		c.delete(t.id)
		e.Error = startErr
		h(e)
		return
	}
	if writeErr := c.write(t.raw); writeErr != nil {
		c.delete(t.id)
		e.Error = writeErr
		// Stopping the agent transaction instead of waiting for its deadline.
		if stopErr := c.stop(t.id); stopErr != nil { // want `useafterput`
			e.Error = stopErr
		}
		h(e)
	}
}

// Start registers a transaction for raw and sends it.
func (c *Client) Start(id transactionID, raw []byte, h Handler) (time.Time, error) {
	t := acquireClientTransaction()
	t.id = id
	t.start = time.Now()
	t.h = h
	t.rto = c.rto
	t.attempt = 0
	t.raw = append(t.raw[:0], raw...)
	deadline := t.nextTimeout(t.start)
	if err := c.start(t); err != nil {
		return time.Time{}, err
	}
	if err := c.write(raw); err != nil {
		c.delete(id)
		return time.Time{}, err
	}
	return deadline, nil
}
