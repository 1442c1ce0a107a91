// Package fixed is the repaired twin of mbrt/gmailctl#282 (https://github.com/mbrt/gmailctl/pull/282): the fix resets the buffer before it goes back to the pool.
package fixed

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
		buf.Reset()
		bufPool.Put(buf)
	}
	return s
}
