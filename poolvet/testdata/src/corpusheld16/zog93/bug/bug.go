// Package bug reproduces the shape of Oudwins/zog#93
// (https://github.com/Oudwins/zog/pull/93): validation issues (ZogErr)
// were moved to a sync.Pool; the constructor fills a pooled issue with the
// caller's value, params and wrapped error, and Free puts it straight back.
// The review on internals/Issues.go flagged Free: without resetting the
// fields first, the idle issue keeps the validated value, the params map
// and the cause error reachable, and stale data can leak into later use.
//
// Check: noreset (the Get helper stores caller-supplied references in the
// pooled struct; the releasing method puts it back without clearing them).
package bug

import (
	"fmt"
	"sync"
)

type ZogErr struct {
	C       string         // issue code
	EPath   string         // path of the failing field
	Typ     string         // schema type
	Val     any            // value that failed
	ParamsM map[string]any // code parameters
	Msg     string         // rendered message
	Err     error          // wrapped cause
}

var ZogIssuePool = sync.Pool{New: func() any { return &ZogErr{} }}

// NewZogIssue takes an issue from the pool and fills it in.
func NewZogIssue(code, path, typ string, val any, params map[string]any, msg string, err error) *ZogErr {
	e := ZogIssuePool.Get().(*ZogErr)
	e.C = code
	e.EPath = path
	e.Typ = typ
	e.Val = val
	e.ParamsM = params
	e.Msg = msg
	e.Err = err
	return e
}

func (e *ZogErr) Error() string {
	return fmt.Sprintf("%s: %s (%s)", e.EPath, e.Msg, e.C)
}

func (e *ZogErr) Unwrap() error { return e.Err }

// Free returns the issue to the pool.
func (e *ZogErr) Free() {
	ZogIssuePool.Put(e) // want `noreset`
}

// Validate reports an issue when v is empty, rendering it at once.
func Validate(path string, v string) string {
	if v != "" {
		return ""
	}
	e := NewZogIssue("required", path, "string", v, map[string]any{"min": 1}, "is required", nil)
	s := e.Error()
	e.Free()
	return s
}
