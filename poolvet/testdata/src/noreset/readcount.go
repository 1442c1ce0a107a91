package noreset

import (
	"errors"
	"io"
	"sync"
)

// A pooled buffer filled by one Read whose count is ignored: the bytes
// past it are the previous user's (AdguardTeam/dnsproxy#484).

var rcPool = sync.Pool{New: func() any {
	b := make([]byte, 4096)
	return &b
}}

func rcParse(b []byte) (int, error) {
	if len(b) < 12 {
		return 0, errors.New("short")
	}
	return int(b[0]), nil
}

func rcRead(r io.Reader) (int, error) {
	bp := rcPool.Get().(*[]byte)
	defer rcPool.Put(bp)
	buf := *bp
	n, err := r.Read(buf)
	if err != nil && n == 0 {
		return 0, err
	}
	return rcParse(buf[2:]) // want `the pooled buffer is used here past the count that the Read at line 28 returned`
}

// Silent: cut at the count.
func rcReadN(r io.Reader) (int, error) {
	bp := rcPool.Get().(*[]byte)
	defer rcPool.Put(bp)
	buf := *bp
	n, err := r.Read(buf)
	if err != nil && n == 0 {
		return 0, err
	}
	return rcParse(buf[2:n])
}

// Silent: io.ReadFull fills the whole buffer or fails.
func rcReadFull(r io.Reader) (int, error) {
	bp := rcPool.Get().(*[]byte)
	defer rcPool.Put(bp)
	buf := *bp
	if _, err := io.ReadFull(r, buf); err != nil {
		return 0, err
	}
	return rcParse(buf)
}
