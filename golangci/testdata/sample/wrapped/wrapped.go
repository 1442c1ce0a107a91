// Package wrapped has the bug of package bad through another package's
// wrappers.
package wrapped

import "example.com/sample/bufs"

// Render returns bytes that the next user of the buffer overwrites.
func Render(s string) []byte {
	b := bufs.Get()
	defer bufs.Release(b)
	b.WriteString(s)
	return b.Bytes()
}
