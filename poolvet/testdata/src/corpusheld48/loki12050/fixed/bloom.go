// Source: https://github.com/grafana/loki/pull/12050
// (commit 7c8992f4e41f3e718575a06f346dc9006612c6eb, "fix(blooms): fix
// reference leak and resulting race condition in BloomPageDecoder")
//
// Follow-up to https://github.com/grafana/loki/pull/12027, which had
// replaced a deferred BlockPool.Put in LazyDecodeBloomPage by
// BloomPageDecoder.Drop(): LazyBloomIter calls Drop when it moves off a page
// and Drop puts the decompressed page (d.data) back into BlockPool. But the
// page data escapes the decoder: Next() decodes each Bloom in place, so the
// *Bloom returned by At() aliases d.data (data -> dec -> Bloom). Callers
// still holding blooms of the previous page read memory that BlockPool has
// already handed to the next page load: a reference leak and the resulting
// race.
//
// Fixed by not pooling the decompressed page at all (b := make([]byte,
// page.DecompressedLen)), removing Drop and its calls, and reading the
// compressed page inside LazyDecodeBloomPage with a buffer from BlockPool
// that is put back by a deferred Put once decompression is done.
//
// BlockPool re-creates prometheus' bucketed util/pool.Pool, which stores
// []byte values in per-size sync.Pools (same before and after the fix).
//
// Fixed twin: the project's fix applied.
package fixed

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

// --- prometheus util/pool (trimmed) ---

type Pool struct {
	buckets []sync.Pool
	sizes   []int
	make    func(int) interface{}
}

func NewPool(minSize, maxSize int, factor float64, makeFunc func(int) interface{}) *Pool {
	var sizes []int
	for s := minSize; s <= maxSize; s = int(float64(s) * factor) {
		sizes = append(sizes, s)
	}
	return &Pool{
		buckets: make([]sync.Pool, len(sizes)),
		sizes:   sizes,
		make:    makeFunc,
	}
}

func (p *Pool) Get(sz int) interface{} {
	for i, bktSize := range p.sizes {
		if sz > bktSize {
			continue
		}
		b := p.buckets[i].Get()
		if b == nil {
			b = p.make(bktSize)
		}
		return b
	}
	return p.make(sz)
}

func (p *Pool) Put(s interface{}) {
	slice := s.([]byte)
	for i, size := range p.sizes {
		if cap(slice) > size {
			continue
		}
		p.buckets[i].Put(slice[:0])
		return
	}
}

// --- bloom/v1 util.go ---

type BytePool struct {
	pool *Pool
}

func (p *BytePool) Get(size int) []byte {
	return p.pool.Get(size).([]byte)[:0]
}

func (p *BytePool) Put(b []byte) {
	p.pool.Put(b)
}

// 1KB -> 8MB
var BlockPool = BytePool{
	pool: NewPool(
		1<<10, 1<<24, 4,
		func(size int) interface{} {
			return make([]byte, size)
		}),
}

// --- chunkenc/pool.go (trimmed; reader stands in for *snappy.Reader) ---

type snappyReader struct {
	r       io.Reader
	decoded []byte
}

func newSnappyReader(src io.Reader) *snappyReader {
	return &snappyReader{r: src, decoded: make([]byte, 0, 64<<10)}
}

func (r *snappyReader) Reset(src io.Reader) {
	r.r = src
	r.decoded = r.decoded[:0]
}

func (r *snappyReader) Read(p []byte) (int, error) {
	return r.r.Read(p)
}

type ReaderPool interface {
	GetReader(io.Reader) (io.Reader, error)
	PutReader(io.Reader)
}

type SnappyPool struct {
	readers sync.Pool
}

// GetReader gets or creates a new CompressionReader and reset it to read from src
func (pool *SnappyPool) GetReader(src io.Reader) (io.Reader, error) {
	if r := pool.readers.Get(); r != nil {
		reader := r.(*snappyReader)
		reader.Reset(src)
		return reader, nil
	}
	return newSnappyReader(src), nil
}

// PutReader places back in the pool a CompressionReader
func (pool *SnappyPool) PutReader(reader io.Reader) {
	r := reader.(*snappyReader)
	// Reset to free reference to the underlying reader
	r.Reset(nil)
	pool.readers.Put(reader)
}

// --- bloom/v1 bloom.go ---

type Decbuf struct {
	B []byte
}

func (d *Decbuf) Get() []byte { return d.B }
func (d *Decbuf) Len() int    { return len(d.B) }

func (d *Decbuf) Be64() uint64 {
	if len(d.B) < 8 {
		return 0
	}
	v := binary.BigEndian.Uint64(d.B)
	d.B = d.B[8:]
	return v
}

func (d *Decbuf) Bytes(n int) []byte {
	if n > len(d.B) {
		n = len(d.B)
	}
	b := d.B[:n]
	d.B = d.B[n:]
	return b
}

type Bloom struct {
	data []byte
}

// Decode decodes the bloom in place: b.data aliases the decoder's buffer.
func (b *Bloom) Decode(dec *Decbuf) error {
	ln := 64
	if dec.Len() < ln {
		ln = dec.Len()
	}
	b.data = dec.Bytes(ln)
	return nil
}

func LazyDecodeBloomPage(r io.Reader, pool ReaderPool, page BloomPageHeader) (*BloomPageDecoder, error) {
	data := BlockPool.Get(page.Len)[:page.Len]
	defer BlockPool.Put(data)

	_, err := io.ReadFull(r, data)
	if err != nil {
		return nil, errors.New("reading bloom page")
	}
	dec := &Decbuf{B: data}

	decompressor, err := pool.GetReader(bytes.NewReader(dec.Get()))
	if err != nil {
		return nil, errors.New("getting decompressor")
	}
	defer pool.PutReader(decompressor)

	b := make([]byte, page.DecompressedLen)

	if _, err = io.ReadFull(decompressor, b); err != nil {
		return nil, errors.New("decompressing bloom page")
	}

	decoder := NewBloomPageDecoder(b)

	return decoder, nil
}

func NewBloomPageDecoder(data []byte) *BloomPageDecoder {
	// last 8 bytes are the number of blooms in this page
	dec := Decbuf{B: data[len(data)-8:]}
	n := int(dec.Be64())
	// reset data to the bloom portion of the page
	data = data[:len(data)-8]
	dec.B = data

	decoder := &BloomPageDecoder{
		dec:  &dec,
		data: data,
		n:    n,
	}

	return decoder
}

// Decoder is a seekable, reset-able iterator
// TODO(owen-d): use buffer pools. The reason we don't currently
// do this is because the `data` slice currently escapes the decoder
// via the returned bloom, so we can't know when it's safe to return it to the pool.
type BloomPageDecoder struct {
	data []byte
	dec  *Decbuf

	n   int // number of blooms in page
	cur *Bloom
	err error
}

func (d *BloomPageDecoder) Reset() {
	d.err = nil
	d.cur = nil
	d.dec.B = d.data
}

func (d *BloomPageDecoder) Next() bool {
	if d.dec.Len() == 0 {
		return false
	}
	var b Bloom
	d.err = b.Decode(d.dec)
	if d.err != nil {
		return false
	}
	d.cur = &b
	return true
}

func (d *BloomPageDecoder) At() *Bloom { return d.cur }

type BloomPageHeader struct {
	Offset, Len, DecompressedLen int
}

type BloomBlock struct {
	pageHeaders []BloomPageHeader
	pool        ReaderPool
}

func (b *BloomBlock) BloomPageDecoder(r io.ReadSeeker, pageIdx int) (*BloomPageDecoder, error) {
	if pageIdx < 0 || pageIdx >= len(b.pageHeaders) {
		return nil, errors.New("invalid page for bloom page decoding")
	}

	page := b.pageHeaders[pageIdx]

	if _, err := r.Seek(int64(page.Offset), io.SeekStart); err != nil {
		return nil, errors.New("seeking to bloom page")
	}

	return LazyDecodeBloomPage(r, b.pool, page)
}

// --- bloom/v1 bloom_querier.go (trimmed) ---

type LazyBloomIter struct {
	blooms       *BloomBlock
	reader       io.ReadSeeker
	curPageIndex int
	curPage      *BloomPageDecoder
	err          error
}

func (it *LazyBloomIter) next() bool {
	for it.curPageIndex < len(it.blooms.pageHeaders) {
		// first access of next page
		if it.curPage == nil {
			page, err := it.blooms.BloomPageDecoder(it.reader, it.curPageIndex)
			if err != nil {
				it.err = err
				return false
			}
			it.curPage = page
			continue
		}
		if !it.curPage.Next() {
			// we've exhausted the current page, progress to next
			it.curPageIndex++
			it.curPage = nil
			continue
		}
		return true
	}
	return false
}

func (it *LazyBloomIter) At() *Bloom {
	return it.curPage.At()
}
