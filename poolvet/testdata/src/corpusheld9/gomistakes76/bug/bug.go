// Package bug reproduces the shape of teivah/100-go-mistakes#76
// (https://github.com/teivah/100-go-mistakes/pull/76): the book's sync.Pool
// example (mistake #96, reducing allocations) pooled plain []byte buffers.
// The deferred Put converted the slice to an interface, which allocates a
// slice header on every call, the very allocation the example meant to save;
// the PR also notes that truncating to [:0] belongs just before the Put. The
// fix pools *[]byte and truncates inside the deferred closure.
//
// Check: nonpointer (a []byte put into a sync.Pool by a deferred Put).
package bug

import (
	"io"
	"sync"
)

var pool = sync.Pool{
	New: func() any {
		return make([]byte, 1024)
	},
}

var response = []byte("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")

// getResponse fills b with a response and returns its length.
func getResponse(b []byte) int {
	return copy(b, response)
}

func write(w io.Writer) error {
	buffer := pool.Get().([]byte)
	buffer = buffer[:cap(buffer)]
	defer pool.Put(buffer) // want `nonpointer`

	n := getResponse(buffer)
	_, err := w.Write(buffer[:n])
	return err
}

// Write writes one response to w.
func Write(w io.Writer) error {
	return write(w)
}
