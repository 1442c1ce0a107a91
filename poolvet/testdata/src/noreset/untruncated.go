package noreset

import (
	"runtime"
	"sync"
)

// Pools of slices whose users append to what Get returns: a Put of a slice
// still holding what was appended since the Get, on some path, hands the
// next user those elements (prometheus/prometheus#19699).

var walBufs = sync.Pool{New: func() any { return make([]byte, 0, 512) }}

var walBufPtrs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func encodeRecord(dst []byte, rec string) []byte { return append(dst, rec...) }

func walLog([]byte) error { return nil }

// The deferred closure puts what buf holds at return: on the error path,
// the encoded record.
func logRecord(rec string) error {
	buf := walBufs.Get().([]byte)
	defer func() {
		walBufs.Put(buf) // want `buf goes back to the pool holding what was appended to it since the Get`
	}()
	buf = encodeRecord(buf, rec)
	if err := walLog(buf); err != nil {
		return err
	}
	buf = buf[:0]
	return nil
}

// An explicit Put on the error path.
func logRecordExplicit(rec string) error {
	buf := walBufs.Get().([]byte)
	buf = append(buf, rec...)
	if err := walLog(buf); err != nil {
		walBufs.Put(buf) // want `buf goes back to the pool holding what was appended to it since the Get`
		return err
	}
	walBufs.Put(buf[:0])
	return nil
}

// A pooled *[]byte whose contents grow and are put back as they are.
func logRecordPtr(rec string) error {
	p := walBufPtrs.Get().(*[]byte)
	*p = encodeRecord(*p, rec)
	err := walLog(*p)
	walBufPtrs.Put(p) // want `p goes back to the pool holding what was appended to it since the Get`
	return err
}

// The fix: every path puts it back empty.
func logRecordFixed(rec string) error {
	buf := walBufs.Get().([]byte)
	defer func() {
		walBufs.Put(buf[:0])
	}()
	buf = encodeRecord(buf, rec)
	return walLog(buf)
}

func logRecordPtrFixed(rec string) error {
	p := walBufPtrs.Get().(*[]byte)
	*p = encodeRecord(*p, rec)
	err := walLog(*p)
	*p = (*p)[:0]
	walBufPtrs.Put(p)
	return err
}

// Users that truncate what they get do not see the old elements.
var cutBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func logRecordCutOnGet(rec string) error {
	p := cutBufs.Get().(*[]byte)
	*p = (*p)[:0]
	*p = encodeRecord(*p, rec)
	err := walLog(*p)
	cutBufs.Put(p)
	return err
}

// A finalizer that puts back the slice its argument points to, as its
// last user left it, into a pool whose users append to what they get
// (scroll-tech/go-ethereum#104's FormatLogs).
type traceRow struct {
	op    string
	stack []string
}

var traceRowsPool = sync.Pool{New: func() any { return make([]traceRow, 0, 64) }}

var traceRowsPoolFixed = sync.Pool{New: func() any { return make([]traceRow, 0, 64) }}

func formatTrace(ops []string) []traceRow {
	rows := traceRowsPool.Get().([]traceRow)
	runtime.SetFinalizer(&rows, func(r *[]traceRow) {
		traceRowsPool.Put(*r) // want `\*r goes back to the pool with the length and elements its last user left`
	})
	for _, op := range ops {
		rows = append(rows, traceRow{op: op})
	}
	return rows
}

// The fixed shape truncates (and clears) before the Put.
func formatTraceFixed(ops []string) []traceRow {
	rows := traceRowsPoolFixed.Get().([]traceRow)
	runtime.SetFinalizer(&rows, func(r *[]traceRow) {
		clear(*r)
		*r = (*r)[:0]
		traceRowsPoolFixed.Put(*r)
	})
	for _, op := range ops {
		rows = append(rows, traceRow{op: op})
	}
	return rows
}
