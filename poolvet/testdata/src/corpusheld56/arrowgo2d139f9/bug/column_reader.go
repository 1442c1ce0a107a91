// Source: https://github.com/apache/arrow-go/commit/2d139f915407c3baec43033b65e8eb1debed1359
// (part of https://github.com/apache/arrow-go/pull/880)
//
// Bug: parquet/file columnChunkReader.Close released c.curPage (which puts
// the *DataPageV1 back into dataPageV1Pool) and then closed c.rdr, the
// serializedPageReader, whose Close releases its own curPage: the very same
// object, since c.curPage == c.rdr.Page(). The page went into the shared
// sync.Pool twice; the nil-buf guard in Release does not help when another
// goroutine has already taken the page out of the pool again and set buf,
// so a concurrent writer could reacquire the page mid-release.
// Fix: the page reader is the sole owner of the page; Close only closes the
// page reader and releases curPage itself only when there is no page reader.
//
// Check: doubleput (at `return c.rdr.Close()` in columnChunkReader.Close: the
// callee serializedPageReader.Close releases the page that was just released
// and put into dataPageV1Pool by c.curPage.Release()).
package bug

import "sync"

// Buffer stands in for arrow's memory.Buffer.
type Buffer struct {
	buf []byte
}

func (b *Buffer) Bytes() []byte { return b.buf }
func (b *Buffer) Release()      { b.buf = nil }

// Page is an interface for handling DataPages or Dictionary Pages
type Page interface {
	Data() []byte
	NumValues() int32
	// release this page object back into the page pool for re-use
	Release()
}

type page struct {
	buf   *Buffer
	nvals int32
}

func (p *page) Data() []byte     { return p.buf.Bytes() }
func (p *page) NumValues() int32 { return p.nvals }

var dataPageV1Pool = sync.Pool{
	New: func() interface{} { return (*DataPageV1)(nil) },
}

// DataPageV1 represents a DataPage version 1 from the parquet.thrift file
type DataPageV1 struct {
	page

	uncompressedSize int32
	firstRowIndex    int64
}

func NewDataPageV1(buffer *Buffer, num int32, uncompressedSize int32) *DataPageV1 {
	dp := dataPageV1Pool.Get().(*DataPageV1)
	if dp == nil {
		return &DataPageV1{
			page:             page{buf: buffer, nvals: num},
			uncompressedSize: uncompressedSize,
			firstRowIndex:    -1,
		}
	}

	dp.buf, dp.nvals = buffer, num
	dp.uncompressedSize = uncompressedSize
	dp.firstRowIndex = -1
	return dp
}

// Release this page back into the DataPage object pool so that it can be reused.
//
// After calling this function, the object should not be utilized anymore, otherwise
// conflicts can arise.
func (d *DataPageV1) Release() {
	if d.buf == nil {
		return
	}
	d.buf.Release()
	d.buf = nil
	dataPageV1Pool.Put(d)
}

// PageReader is the interface for reading the pages of a column chunk.
type PageReader interface {
	Next() bool
	Page() Page
	Err() error
	Close() error
}

type serializedPageReader struct {
	pages    [][]byte
	rowsSeen int
	curPage  Page
	err      error
}

func (p *serializedPageReader) Close() error {
	if p.curPage != nil {
		// free a direct PageReader user's streaming value stream
		p.curPage.Release()
		p.curPage = nil
	}
	return nil
}

func (p *serializedPageReader) Page() Page { return p.curPage }
func (p *serializedPageReader) Err() error { return p.err }

func (p *serializedPageReader) Next() bool {
	if p.curPage != nil {
		p.curPage.Release()
	}
	p.curPage = nil

	if p.rowsSeen >= len(p.pages) {
		return false
	}
	data := p.pages[p.rowsSeen]
	p.rowsSeen++
	p.curPage = NewDataPageV1(&Buffer{buf: data}, int32(len(data)), int32(len(data)))
	return true
}

type columnChunkReader struct {
	rdr     PageReader
	curPage Page

	numBuffered int64
	numDecoded  int64
	err         error
}

// Close closes the page raeder and the page if set.
func (c *columnChunkReader) Close() error {
	if c.curPage != nil {
		c.curPage.Release()
	}
	if c.rdr != nil {
		return c.rdr.Close() // want `doubleput`
	}
	return nil
}

// read a new page from the page reader
func (c *columnChunkReader) readNewPage() bool {
	for c.rdr.Next() { // keep going until we get a data page
		c.curPage = c.rdr.Page()
		if c.curPage == nil {
			break
		}
		c.numBuffered = int64(c.curPage.NumValues())
		c.numDecoded = 0
		return true
	}

	// If we get here, we're at the end of the column, and the page must
	// have already been released. So set it to nil to avoid releasing twice.
	c.curPage = nil
	c.err = c.rdr.Err()
	return false
}

// HasNext returns whether there is more data to be read in this column
// and row group.
func (c *columnChunkReader) HasNext() bool {
	if c.numBuffered == 0 || c.numDecoded == c.numBuffered {
		return c.readNewPage() && c.numBuffered != 0
	}
	return true
}

func ReadColumn(pages [][]byte) int64 {
	c := &columnChunkReader{rdr: &serializedPageReader{pages: pages}}
	defer c.Close()
	var n int64
	if c.HasNext() {
		n = c.numBuffered
		c.numDecoded = c.numBuffered
	}
	return n
}
