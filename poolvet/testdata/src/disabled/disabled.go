// Package disabled misuses pools in every way poolvet knows; the test runs
// it with every check turned off and expects silence.
package disabled

import (
	"bytes"
	"strings"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func all(b []byte) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.WriteString("x")
	bufPool.Put(buf)
	bufPool.Put(buf)
	bufPool.Put(b)
	_ = bufPool.Get().(*strings.Builder)
	return buf.Bytes()
}
