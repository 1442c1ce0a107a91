// Package bug reproduces the shape of segmentio/parquet-go#265
// (https://github.com/segmentio/parquet-go/pull/265, fixing
// https://github.com/segmentio/parquet-go/issues/254): while the values of
// one row were being read, crossing a page boundary released the current
// page buffer to its sync.Pool, but the row already held BYTE_ARRAY values
// that were references into that page. The row was handed to the
// application afterwards, so a row could show another row's bytes. The fix
// copies byte-array values instead of referencing the page buffer.
//
// Check: useafterput (values sharing the pooled page's memory are kept in a
// local list; the page is put back when the reader moves to the next page,
// and the list is appended to and returned afterwards; the report is at the
// first use of the list after the Put, the append in the loop, per
// docs/poolvet.md; the later return is a second use of the same alias).
package bug

import (
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

const maxPageBuf = 1 << 20

type Value struct {
	rep  int
	data []byte
}

// Clone copies the value's bytes out of the page.
func (v Value) Clone() Value {
	v.data = append([]byte(nil), v.data...)
	return v
}

type Row []Value

type page struct {
	buf    []byte
	values []Value
}

var pagePool = sync.Pool{New: func() any { return new(page) }}

func releasePage(p *page) {
	if cap(p.buf) > maxPageBuf {
		return
	}
	clear(p.values)
	p.values = p.values[:0]
	p.buf = p.buf[:0]
	pagePool.Put(p)
}

var errCorrupt = errors.New("corrupt page")

type columnReader struct {
	pages [][]byte // encoded pages: repeated (rep byte, uvarint len, bytes)
	next  int
	page  *page
	index int
}

// readPage decodes the next page into a pooled page buffer; the values
// refer to the page's own bytes.
func (c *columnReader) readPage() (*page, error) {
	if c.next == len(c.pages) {
		return nil, io.EOF
	}
	raw := c.pages[c.next]
	c.next++
	p := pagePool.Get().(*page)
	p.buf = append(p.buf[:0], raw...)
	p.values = p.values[:0]
	for off := 0; off < len(p.buf); {
		rep := int(p.buf[off])
		l, k := binary.Uvarint(p.buf[off+1:])
		if k <= 0 || off+1+k+int(l) > len(p.buf) {
			releasePage(p)
			return nil, errCorrupt
		}
		start := off + 1 + k
		p.values = append(p.values, Value{rep: rep, data: p.buf[start : start+int(l)]})
		off = start + int(l)
	}
	return p, nil
}

// ReadRow reads the count values of the next row (the count comes from
// the repetition levels). A row may span two pages.
func (c *columnReader) ReadRow(row Row, count int) (Row, error) {
	row = row[:0]
	for i := 0; i < count; i++ {
		if c.page == nil || c.index == len(c.page.values) {
			if c.page != nil {
				releasePage(c.page)
				c.page = nil
			}
			p, err := c.readPage()
			if err != nil {
				return nil, err
			}
			c.page, c.index = p, 0
		}
		row = append(row, c.page.values[c.index]) // want `useafterput`
		c.index++
	}
	return row, nil
}
