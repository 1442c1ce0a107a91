// Package fixed is the fix of redis/rueidis#613
// (https://github.com/redis/rueidis/pull/613, commit 653339c): the pooled
// *io.LimitedReader drops its reference to the connection's reader before it
// goes back to the pool.
package fixed

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
		lr.R = nil
		lrs.Put(lr)
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
