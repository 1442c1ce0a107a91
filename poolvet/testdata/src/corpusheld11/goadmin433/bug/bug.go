// Package bug reproduces the shape of GoAdminGroup/go-admin#433
// (https://github.com/GoAdminGroup/go-admin/issues/433, DeepSource
// SCC-SA6002, one occurrence: modules/file/file.go): the uploader copies a
// multipart file to disk through copyZeroAlloc, whose 4 KiB copy buffer
// comes from a sync.Pool of []byte and goes back as a slice value, so every
// Put boxes the slice header and allocates, the thing the pool was there to
// avoid.
//
// Check: nonpointer (a []byte value put into a sync.Pool).
package bug

import (
	"io"
	"sync"
)

var copyBufPool = sync.Pool{
	New: func() any {
		return make([]byte, 4096)
	},
}

func copyZeroAlloc(w io.Writer, r io.Reader) (int64, error) {
	buf := copyBufPool.Get().([]byte)
	n, err := io.CopyBuffer(w, r, buf)
	copyBufPool.Put(buf) // want `nonpointer`
	return n, err
}

// SaveTo copies an uploaded file to its destination.
func SaveTo(dst io.Writer, src io.Reader) error {
	_, err := copyZeroAlloc(dst, src)
	return err
}
