// Package bug reproduces the shape of redis/rueidis#613
// (https://github.com/redis/rueidis/pull/613, commit 653339c
// "perf: clear sync.Pool containers when putting them back"): streamTo
// borrows an *io.LimitedReader from a package pool, points it at the
// connection's *bufio.Reader to copy one blob string to the caller's writer,
// and puts it back still pointing at that reader. While it sits idle in the
// pool it keeps the connection's reader (and its buffer) reachable; the fix
// sets lr.R = nil before the Put.
//
// Check: noreset (a pooled object put back still holding a reference the
// function was passed: the reader parameter stored in a field after Get).
package bug

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"sync"
)

var errNil = errors.New("redis nil message")

var lrs = sync.Pool{New: func() any { return &io.LimitedReader{} }}

// readLen reads a RESP length line such as "12\r\n".
func readLen(i *bufio.Reader) (int64, error) {
	line, err := i.ReadString('\n')
	if err != nil {
		return 0, err
	}
	if len(line) < 2 {
		return 0, errors.New("short length line")
	}
	return strconv.ParseInt(line[:len(line)-2], 10, 64)
}

// streamTo copies the next blob string of the reply from i to w.
func streamTo(i *bufio.Reader, w io.Writer) (n int64, err error, clean bool) {
	typ, err := i.ReadByte()
	if err != nil {
		return 0, err, false
	}
	if typ != '$' {
		_ = i.UnreadByte()
		return 0, errors.New("not a blob string"), false
	}
	if n, err = readLen(i); err != nil {
		return 0, err, false
	}
	if n == -1 {
		return 0, errNil, true
	}
	full := n + 2
	if n != 0 {
		lr := lrs.Get().(*io.LimitedReader)
		lr.R = i
		lr.N = n
		n, err = io.Copy(w, lr)
		lrs.Put(lr) // want `noreset`
	}
	if _, err2 := i.Discard(int(full - n)); err2 == nil {
		clean = true
	} else if err == nil {
		err = err2
	}
	return n, err, clean
}

// StreamTo is the exported entry point.
func StreamTo(r *bufio.Reader, w io.Writer) (int64, error) {
	n, err, _ := streamTo(r, w)
	return n, err
}
