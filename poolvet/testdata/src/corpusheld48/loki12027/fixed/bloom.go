// Source: https://github.com/grafana/loki/pull/12027
// (commit 1dce7b512c4ea6123f780e2e47d4da824f82241f,
// "fix(blooms): race condition in `BloomPageDecoder`")
//
// Loki bloom querier: LazyDecodeBloomPage takes a page buffer from the
// bucketed BlockPool, decompresses the page into it and returns a
// *BloomPageDecoder whose data field is that buffer -- but it also has
// `defer BlockPool.Put(b)`, so the buffer is back in the pool while the
// decoder (held by LazyBloomIter as curPage) still iterates over it. A
// concurrent page load gets the same buffer and overwrites the blooms being
// read: race / corrupted blooms.
//
// Second part of the same fix: SnappyPool.PutReader put *snappy.Reader
// values back into its sync.Pool still referencing the last source reader
// (and, through it, the whole compressed page), keeping that memory alive
// in the pool. The fix resets the reader to nil before Put.
//
// Fixed by dropping the deferred Put (the decoder gets a Drop method that
// returns d.data to BlockPool when the iterator moves off the page), by
// returning the decompressor with a deferred pool.PutReader, and by
// r.Reset(nil) in SnappyPool.PutReader.
//
// Note: a follow-up (https://github.com/grafana/loki/pull/12050, case
// loki12050) found that Drop's BlockPool.Put, as added by this fix, still
// raced because decoded Blooms alias d.data; the fixed twin keeps this
// PR's fix as it was.
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

func LazyDecodeBloomPage(dec *Decbuf, pool ReaderPool, decompressedSize int) (*BloomPageDecoder, error) {
	decompressor, err := pool.GetReader(bytes.NewReader(dec.Get()))
	if err != nil {
		return nil, errors.New("getting decompressor")
	}
	defer pool.PutReader(decompressor)

	b := BlockPool.Get(decompressedSize)[:decompressedSize]

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
type BloomPageDecoder struct {
	data []byte
	dec  *Decbuf

	n   int // number of blooms in page
	cur *Bloom
	err error
}

// Drop returns the underlying byte slice to the pool
// for efficiency. It's intended to be used as a
// perf optimization prior to garbage collection.
func (d *BloomPageDecoder) Drop() {
	if cap(d.data) > 0 {
		BlockPool.Put(d.data)
	}
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
	d.cur = &Bloom{data: d.dec.Bytes(64)}
	return true
}

func (d *BloomPageDecoder) At() *Bloom { return d.cur }

// --- bloom/v1 bloom_querier.go (trimmed) ---

type LazyBloomIter struct {
	pages        [][]byte
	pool         ReaderPool
	curPageIndex int
	curPage      *BloomPageDecoder
	err          error
}

func (it *LazyBloomIter) next() bool {
	for it.curPageIndex < len(it.pages) {
		if it.curPage == nil {
			page, err := LazyDecodeBloomPage(&Decbuf{B: it.pages[it.curPageIndex]}, it.pool, 1<<12)
			if err != nil {
				it.err = err
				return false
			}
			it.curPage = page
		}
		if !it.curPage.Next() {
			// we've exhausted the current page, progress to next
			it.curPageIndex++
			it.curPage.Drop()
			it.curPage = nil
			continue
		}
		return true
	}
	return false
}
