// Package bug reproduces the shape of cockroachdb/cockroach#128199
// (https://github.com/cockroachdb/cockroach/issues/128199): the SQL insights
// registry pools Insight objects. releaseInsight truncates the Statements slice
// with [:0] and keeps its backing array for the next user, but the slots of that
// array still point at the *Statement values of the previous transaction, so an
// Insight parked in the pool keeps every old statement (query text, plan gist,
// index recommendations...) reachable.
// Check: noreset (Insight put back still referencing the previous Statements),
// reported at the Put in releaseInsight.
// Fixed twin: the slots of Statements are set to nil before the slice is
// truncated, so the pooled Insight no longer pins the old statements.
package bug

import "sync"

type sessionID struct{ hi, lo uint64 }

type Statement struct {
	ID              uint64
	Query           string
	IndexRecommends []string
	Problem         int
}

type Transaction struct {
	ID             uint64
	StmtExecutions []uint64
}

type Session struct {
	ID sessionID
}

type Insight struct {
	Session     Session
	Transaction *Transaction
	Statements  []*Statement
}

const maxRetainedStatements = 128

var insightPool = sync.Pool{
	New: func() interface{} {
		return new(Insight)
	},
}

func makeInsight(id sessionID, txn *Transaction) *Insight {
	insight := insightPool.Get().(*Insight)
	insight.Session = Session{ID: id}
	insight.Transaction = txn
	return insight
}

func releaseInsight(insight *Insight) {
	for i := range insight.Statements {
		insight.Statements[i] = nil
	}
	if cap(insight.Statements) > maxRetainedStatements {
		insight.Statements = nil
	}
	insight.Statements = insight.Statements[:0]
	*insight = Insight{Statements: insight.Statements}
	insightPool.Put(insight)
}

type lockingRegistry struct {
	mu      sync.Mutex
	stmts   map[sessionID][]*Statement
	slowest func(*Statement) bool
	sink    func(*Insight)
}

func (r *lockingRegistry) ObserveStatement(id sessionID, s *Statement) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stmts == nil {
		r.stmts = make(map[sessionID][]*Statement)
	}
	r.stmts[id] = append(r.stmts[id], s)
}

func (r *lockingRegistry) ObserveTransaction(id sessionID, txn *Transaction) {
	r.mu.Lock()
	stmts := r.stmts[id]
	delete(r.stmts, id)
	r.mu.Unlock()

	insight := makeInsight(id, txn)
	slow := false
	for _, s := range stmts {
		insight.Statements = append(insight.Statements, s)
		if r.slowest != nil && r.slowest(s) {
			slow = true
		}
	}
	if slow && r.sink != nil {
		r.sink(insight)
		return
	}
	releaseInsight(insight)
}
