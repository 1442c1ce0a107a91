// Package bug reproduces the shape of mbrt/gmailctl#282 (https://github.com/mbrt/gmailctl/pull/282): internal/errors rendered the details of an error chain into a *bytes.Buffer taken from a sync.Pool and put the buffer back without resetting it. The next error to be rendered got a buffer that still held the previous text, so error messages came out with stale descriptions from earlier errors prepended.
//
// Check: noreset (written *bytes.Buffer put back without Reset and used as-is after Get).
package bug

import (
	"bytes"
	"errors"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Details renders every error in err's chain, one per line.
func Details(err error) string {
	buf := bufPool.Get().(*bytes.Buffer)
	for e := err; e != nil; e = errors.Unwrap(e) {
		buf.WriteString(e.Error())
		buf.WriteByte('\n')
	}
	s := buf.String()
	if buf.Cap() <= 64<<10 {
		bufPool.Put(buf) // want `noreset|not reset|stale`
	}
	return s
}
