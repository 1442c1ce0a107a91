// Package fixed is the fixed twin of the shape of apache/arrow-go commit e7ca7c17
// (https://github.com/apache/arrow-go/commit/e7ca7c1791680dfafd48aa1ab01625c9fe897833,
// "fix(parquet/file): avoid double-release of the current page on Close"):
// the column chunk reader keeps the page its page reader handed out
// (c.curPage == c.rdr.Page()). columnChunkReader.Close released that page
// and then closed the page reader, whose Close released its own curPage,
// the same object, again: the page went back to dataPageV1Pool twice.
//
// Check: doubleput (a Release method puts the page, then a Close method of
// the object that handed it out puts it again). The want is at the call of
// the page reader's Close, where the second Put happens on this path. The
// page reader is an interface in the project; here it is the concrete type.
package fixed

import (
	"errors"
	"io"
	"sync"
)

var dataPageV1Pool = sync.Pool{
	New: func() any { return (*DataPageV1)(nil) },
}

type DataPageV1 struct {
	buf       []byte
	nvalues   int32
	encoding  int32
	firstRow  int64
	valueRead int
}

func newDataPageV1(buf []byte, nvalues int32, enc int32, firstRow int64) *DataPageV1 {
	dp := dataPageV1Pool.Get().(*DataPageV1)
	if dp == nil {
		dp = &DataPageV1{}
	}
	dp.buf = buf
	dp.nvalues = nvalues
	dp.encoding = enc
	dp.firstRow = firstRow
	return dp
}

// Release clears the page and returns it to the pool.
func (d *DataPageV1) Release() {
	*d = DataPageV1{}
	dataPageV1Pool.Put(d)
}

func (d *DataPageV1) Data() []byte { return d.buf }

type serializedPageReader struct {
	r       io.Reader
	curPage *DataPageV1
	err     error
	rows    int64
}

// Next reads the next page. The previous page was released by the column
// chunk reader that consumed it.
func (p *serializedPageReader) Next() bool {
	p.curPage = nil
	hdr := make([]byte, 4)
	if _, err := io.ReadFull(p.r, hdr); err != nil {
		if !errors.Is(err, io.EOF) {
			p.err = err
		}
		return false
	}
	n := int(hdr[0])<<8 | int(hdr[1])
	buf := make([]byte, n)
	if _, err := io.ReadFull(p.r, buf); err != nil {
		p.err = err
		return false
	}
	p.curPage = newDataPageV1(buf, int32(hdr[2]), int32(hdr[3]), p.rows)
	p.rows += int64(hdr[2])
	return true
}

func (p *serializedPageReader) Page() *DataPageV1 { return p.curPage }

func (p *serializedPageReader) Err() error { return p.err }

// Close does not release curPage: the column chunk reader holding the same
// page releases it.
func (p *serializedPageReader) Close() error {
	p.curPage = nil
	return nil
}

type columnChunkReader struct {
	rdr     *serializedPageReader
	curPage *DataPageV1
	values  []byte
}

func (c *columnChunkReader) HasNext() bool {
	if c.curPage != nil {
		c.curPage.Release()
		c.curPage = nil
	}
	if !c.rdr.Next() {
		return false
	}
	c.curPage = c.rdr.Page()
	c.values = append(c.values[:0], c.curPage.Data()...)
	return true
}

// Close closes the page reader and the page if set.
func (c *columnChunkReader) Close() error {
	if c.curPage != nil {
		c.curPage.Release()
	}
	if c.rdr != nil {
		return c.rdr.Close()
	}
	return nil
}

// ReadColumn reads pages until at least limit bytes of values were seen.
func ReadColumn(r io.Reader, limit int) (int, error) {
	c := &columnChunkReader{rdr: &serializedPageReader{r: r}}
	total := 0
	for c.HasNext() {
		total += len(c.values)
		if total >= limit {
			break
		}
	}
	if err := c.rdr.Err(); err != nil {
		c.Close()
		return total, err
	}
	return total, c.Close()
}
