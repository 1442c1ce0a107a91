package useafterput

import (
	"bufio"
	"io"
	"sync"
)

var brPool = sync.Pool{New: func() any { return bufio.NewReader(nil) }}

type eofReader struct {
	br *bufio.Reader
}

// Read gives the reader back at EOF but keeps it: a Read after EOF reads
// from a reader another user may have (dgraph-io/dgraph#9641).
func (r *eofReader) Read(p []byte) (int, error) { // want Read:`pool:put\(0\)\?\.field`
	n, err := r.br.Read(p) // want `r.br is used here, but Read puts it back into the pool at line 21 and leaves it in the field`
	if err == io.EOF {
		r.br.Reset(nil)
		brPool.Put(r.br)
	}
	return n, err
}

type clearingReader struct {
	br *bufio.Reader
}

// The field is cleared after the Put: silent.
func (r *clearingReader) Read(p []byte) (int, error) {
	if r.br == nil {
		return 0, io.EOF
	}
	n, err := r.br.Read(p)
	if err == io.EOF {
		r.br.Reset(nil)
		brPool.Put(r.br)
		r.br = nil
	}
	return n, err
}

// A method that ends the reader's use: silent here.
func (r *eofReader) release() {
	r.br.Reset(nil)
	brPool.Put(r.br)
}
