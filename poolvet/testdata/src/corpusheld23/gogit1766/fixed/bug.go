// Package bug is the fixed twin of go-git/go-git#1766, commit 4b94e12
// (https://github.com/go-git/go-git/commit/4b94e1220ae55a752778c70ce69580e0b015bcba): ReadLine still reads
// into a pooled array, but returns a clone of the payload, so callers own what they keep.
// Check: useafterput (none expected here).
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

// ReadLine reads a packet line into a newly allocated buffer and returns the packet length and payload.
func ReadLine(r io.Reader) (l int, p []byte, err error) {
	buf := GetBuffer()
	defer PutBuffer(buf)

	l, err = Read(r, (*buf)[:])
	if l < LenSize {
		return l, nil, err
	}

	clone := bytes.Clone((*buf)[LenSize:l])

	return l, clone, err
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
