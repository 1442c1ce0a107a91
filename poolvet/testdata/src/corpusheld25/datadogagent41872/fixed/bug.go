// Package bug reproduces the shape of DataDog/datadog-agent#41872
// (https://github.com/DataDog/datadog-agent/pull/41872, "[USM] HTTP2: Do not
// keep pointer to a pooled object"): the event consumer hands each HTTP/2
// transaction to the protocol callback as a pointer into a pooled record
// buffer, and recycles the record as soon as the callback returns. The
// statkeeper passes incomplete transactions to the incomplete buffer, whose
// Add appended the very pointer it was given. On the next Flush the buffer
// reads transactions whose memory had gone back to the pool and been
// overwritten by later events. The fix makes Add copy the EbpfTx value into
// a fresh allocation before keeping it.
//
// Check: useafterput (a pointer into a pooled record is stored in a
// long-lived buffer and read after the record was recycled; the report
// belongs on the store that keeps the pointer past the release).
package bug

import "sync"

// EbpfTx is one HTTP/2 transaction as read from the kernel.
type EbpfTx struct {
	RequestStarted   uint64
	ResponseLastSeen uint64
	Status           uint16
	Path             [32]byte
}

// Incomplete reports whether the request or the response half is missing.
func (tx *EbpfTx) Incomplete() bool {
	return tx.RequestStarted == 0 || tx.ResponseLastSeen == 0 || tx.Status == 0
}

// record is the reusable per-event buffer of the perf/ring-buffer reader.
type record struct {
	tx EbpfTx
}

var recordPool = sync.Pool{New: func() any { return new(record) }}

// DirectConsumer reads raw events and calls callback for each of them; the
// record is recycled as soon as the callback returns.
type DirectConsumer struct {
	callback func(*EbpfTx)
}

func (c *DirectConsumer) handle(raw EbpfTx) {
	rec := recordPool.Get().(*record)
	rec.tx = raw
	c.callback(&rec.tx)
	rec.tx = EbpfTx{}
	recordPool.Put(rec)
}

// incompleteBuffer keeps transactions that are not complete yet.
type incompleteBuffer struct {
	data       []*EbpfTx
	maxEntries int
	minAgeNano int64
}

func newIncompleteBuffer(max int) *incompleteBuffer {
	return &incompleteBuffer{maxEntries: max, minAgeNano: 30e9}
}

// Add keeps tx until a later Flush.
func (b *incompleteBuffer) Add(tx *EbpfTx) {
	if len(b.data) >= b.maxEntries {
		return
	}
	// Copy the EbpfTx value: tx points into a pooled record.
	txCopy := new(EbpfTx)
	*txCopy = *tx
	b.data = append(b.data, txCopy)
}

// Flush returns the transactions that became complete and keeps young
// incomplete ones.
func (b *incompleteBuffer) Flush(nowNano int64) []*EbpfTx {
	var joined []*EbpfTx
	previous := b.data
	b.data = make([]*EbpfTx, 0)
	for _, entry := range previous {
		if !entry.Incomplete() {
			joined = append(joined, entry)
		} else if nowNano-int64(entry.RequestStarted) < b.minAgeNano {
			b.data = append(b.data, entry)
		}
	}
	return joined
}

// StatKeeper aggregates complete transactions and buffers the rest.
type StatKeeper struct {
	mu         sync.Mutex
	incomplete *incompleteBuffer
	stats      map[string]int
}

func (s *StatKeeper) Process(tx *EbpfTx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tx.Incomplete() {
		s.incomplete.Add(tx)
		return
	}
	s.add(tx)
}

func (s *StatKeeper) add(tx *EbpfTx) {
	s.stats[string(tx.Path[:])]++
}

func (s *StatKeeper) GetAndResetAllStats(nowNano int64) map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, tx := range s.incomplete.Flush(nowNano) {
		s.add(tx)
	}
	ret := s.stats
	s.stats = make(map[string]int)
	return ret
}

// Protocol wires the consumer to the statkeeper.
type Protocol struct {
	statkeeper *StatKeeper
	consumer   *DirectConsumer
}

func NewProtocol() *Protocol {
	p := &Protocol{statkeeper: &StatKeeper{incomplete: newIncompleteBuffer(1024), stats: make(map[string]int)}}
	p.consumer = &DirectConsumer{callback: p.processHTTP2}
	return p
}

func (p *Protocol) processHTTP2(tx *EbpfTx) {
	p.statkeeper.Process(tx)
}
