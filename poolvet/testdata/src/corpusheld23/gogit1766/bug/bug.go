// Package bug reproduces the shape of go-git/go-git#1766, fixed by commit 4b94e12 "plumbing: format, clone
// buffer in ReadLine. Fixes #1766" (https://github.com/go-git/go-git/commit/4b94e1220ae55a752778c70ce69580e0b015bcba).
// pktline.ReadLine takes a *[MaxSize]byte from a sync.Pool, defers PutBuffer, reads one packet into it and
// returns the payload as a slice of the pooled array. The deferred Put runs as ReadLine returns, so every
// caller gets a view into an array that is already back in the pool; the advertised-refs decoder keeps it
// as d.line (and even inside its sticky error), and the next ReadLine anywhere overwrites it. The fix
// returns a clone of the payload.
// Check: useafterput (a view of the pooled array is returned past the deferred PutBuffer; reported at the
// return).
package bug

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

const (
	MaxSize = 65520
	LenSize = 4
)

var ErrInvalidPktLen = errors.New("invalid pkt-len found")

var pktBuffer = sync.Pool{
	New: func() any {
		var b [MaxSize]byte
		return &b
	},
}

// GetBuffer returns a *[MaxSize]byte managed by a sync.Pool; put it back with PutBuffer.
func GetBuffer() *[MaxSize]byte {
	buf := pktBuffer.Get().(*[MaxSize]byte)
	return buf
}

// PutBuffer puts buf back into its sync.Pool.
func PutBuffer(buf *[MaxSize]byte) {
	if buf == nil {
		return
	}
	pktBuffer.Put(buf)
}

func ParseLength(b []byte) (int, error) {
	n, err := strconv.ParseUint(string(b[:LenSize]), 16, 16)
	if err != nil {
		return 0, ErrInvalidPktLen
	}
	return int(n), nil
}

// Read reads a packet into p and returns its full length.
func Read(r io.Reader, p []byte) (l int, err error) {
	if _, err = io.ReadFull(r, p[:LenSize]); err != nil {
		return -1, err
	}
	length, err := ParseLength(p)
	if err != nil {
		return -1, err
	}
	if length <= LenSize {
		return length, nil
	}
	if length > len(p) {
		return -1, ErrInvalidPktLen
	}
	_, err = io.ReadFull(r, p[LenSize:length])
	return length, err
}

// ReadLine reads a packet line and returns the packet length and payload.
func ReadLine(r io.Reader) (l int, p []byte, err error) {
	buf := GetBuffer()
	defer PutBuffer(buf)

	l, err = Read(r, (*buf)[:])
	if l < LenSize {
		return l, nil, err
	}

	return l, (*buf)[LenSize:l], err // want `useafterput`
}

type ErrUnexpectedData struct {
	Msg  string
	Data []byte
}

func (e *ErrUnexpectedData) Error() string {
	return fmt.Sprintf("%s: %q", e.Msg, e.Data)
}

var eol = []byte("\n")

type advRefsDecoder struct {
	s     io.Reader
	line  []byte
	nLine int
	err   error
}

func (d *advRefsDecoder) error(format string, a ...any) {
	msg := fmt.Sprintf("pkt-line %d: %s", d.nLine, fmt.Sprintf(format, a...))
	d.err = &ErrUnexpectedData{Msg: msg, Data: d.line}
}

func (d *advRefsDecoder) nextLine() bool {
	d.nLine++

	_, p, err := ReadLine(d.s)
	if err != nil {
		if !errors.Is(err, io.EOF) {
			d.err = err
			return false
		}
		d.error("EOF")
		return false
	}

	d.line = p
	d.line = bytes.TrimSuffix(d.line, eol)
	return true
}
