// Source: https://github.com/matrixorigin/matrixone/commit/050b7f292e82512bd518e4dd55e1f938ea302e8b
// ("fix: double free after aggr.PopResultsBeforeWindow (may effect next alloc)")
//
// Statement records (motrace.StatementInfo) come from a sync.Pool
// (stmtPool) and go back to it in StatementInfo.Free. When the export
// bufferHolder flushed, it popped the aggregated statements from the
// aggregator, handed each one to buffer.Add and then called res.Free().
// But ContentBuffer.Add already frees the item after writing it as a CSV
// row, so every aggregated StatementInfo was put back into stmtPool twice;
// the second Free could hit an object another goroutine had already taken
// from the pool again.
// Fix: the caller no longer frees the item ("Add() will free the {item}
// obj"), and the Aggregator interface documents the ownership.
//
// Check: doubleput (at res.Free() in bufferHolder.getGenerateReq: the
// callee buffer.Add already put the item back into stmtPool)
package bug

import (
	"sync"
	"time"
)

// ---- pkg/util/export/table ----

// Item is an exportable record.
type Item interface {
	GetName() string
	Free()
}

// Aggregator groups items by window.
type Aggregator interface {
	AddItem(i Item) (Item, error)
	GetResults() []Item
	PopResultsBeforeWindow(end time.Time) []Item
	GetWindow() time.Duration
}

// ---- pkg/util/trace/impl/motrace ----

type StatementInfo struct {
	StatementID   [16]byte
	Account       string
	Statement     string
	StatementType string
	ResponseAt    time.Time
	Duration      time.Duration
	AggrCount     int64
	jsonByte      []byte

	mux      sync.Mutex
	end      bool
	reported bool
	exported bool
}

func (s *StatementInfo) GetName() string { return "statement_info" }

var stmtPool = sync.Pool{
	New: func() any {
		return &StatementInfo{}
	},
}

func NewStatementInfo() *StatementInfo {
	s := stmtPool.Get().(*StatementInfo)
	return s
}

func (s *StatementInfo) Free() {
	s.mux.Lock()
	defer s.mux.Unlock()
	if s.end && s.exported { // cooperate with s.mux
		s.free()
	}
}

func (s *StatementInfo) free() {
	s.StatementID = [16]byte{}
	s.Account = ""
	s.Statement = ""
	s.StatementType = ""
	s.ResponseAt = time.Time{}
	s.Duration = 0
	s.AggrCount = 0
	s.end = false
	s.reported = false
	s.exported = false
	// clean []byte
	s.jsonByte = nil
	stmtPool.Put(s)
}

// ContentBuffer cache item as csv content, not raw object.
type ContentBuffer struct {
	mux  sync.Mutex
	rows [][]string
}

func (b *ContentBuffer) Add(i Item) {
	b.mux.Lock()
	defer b.mux.Unlock()
	if s, ok := i.(*StatementInfo); ok {
		b.rows = append(b.rows, []string{s.Account, s.Statement, s.StatementType})
	}
	i.Free()
}

func (b *ContentBuffer) IsEmpty() bool { return len(b.rows) == 0 }

// ---- pkg/util/export ----

type bufferGenerateReq struct {
	buffer *ContentBuffer
	b      *bufferHolder
}

type bufferHolder struct {
	mux    sync.Mutex
	buffer *ContentBuffer
	aggr   Aggregator
}

// getGenerateReq get req to do generate logic
// return nil, if b.buffer is nil
func (b *bufferHolder) getGenerateReq() *bufferGenerateReq {
	b.mux.Lock()
	defer b.mux.Unlock()
	if b.buffer == nil || b.buffer.IsEmpty() {
		return nil
	}

	// handle aggr
	if b.aggr != nil {
		end := time.Now().Truncate(b.aggr.GetWindow())
		results := b.aggr.PopResultsBeforeWindow(end)
		for _, res := range results {
			b.buffer.Add(res)
			res.Free() // want `doubleput`
		}
	}
	// END> handle aggr

	req := &bufferGenerateReq{
		buffer: b.buffer,
		b:      b,
	}
	b.buffer = nil
	return req
}
