// Package fixed is Oudwins/zog#93 with the review's fix: Free zeroes every
// field of the issue before returning it to the pool.
package fixed

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

// Free resets the issue and returns it to the pool.
func (e *ZogErr) Free() {
	e.C = ""
	e.EPath = ""
	e.ParamsM = nil
	e.Typ = ""
	e.Val = nil
	e.Msg = ""
	e.Err = nil
	ZogIssuePool.Put(e)
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
