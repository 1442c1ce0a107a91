// Package bug reproduces the shape of VictoriaMetrics/VictoriaMetrics#9466
// (https://github.com/VictoriaMetrics/VictoriaMetrics/pull/9466, commit
// 8d11b9f4a6): getTargetResponse took a chunked buffer from the pool and
// registered a deferred release, then also released it explicitly after
// reading it out. The buffer went back to the pool twice, so two later
// scrapes could get the same buffer and write into it at once.
//
// Check: doubleput (explicit Put through a release wrapper on top of a
// deferred Put of the same object; reported at the explicit Put, which runs
// first, per "a deferred Put reports every explicit Put that precedes a
// return").
package bug

import (
	"errors"
	"sync"
)

const chunkSize = 4 * 1024

type chunk [chunkSize]byte

var chunkPool sync.Pool

func getChunk() *chunk {
	if v := chunkPool.Get(); v != nil {
		return v.(*chunk)
	}
	return new(chunk)
}

func putChunk(c *chunk) { chunkPool.Put(c) }

// Buffer keeps bytes in fixed-size chunks.
type Buffer struct {
	chunks []*chunk
	offset int
}

// Reset hands the chunks back and empties the buffer.
func (cb *Buffer) Reset() {
	for _, c := range cb.chunks {
		putChunk(c)
	}
	clear(cb.chunks)
	cb.chunks = cb.chunks[:0]
	cb.offset = 0
}

// WriteByte appends one byte.
func (cb *Buffer) WriteByte(b byte) error {
	if len(cb.chunks) == 0 || cb.offset == chunkSize {
		cb.chunks = append(cb.chunks, getChunk())
		cb.offset = 0
	}
	cb.chunks[len(cb.chunks)-1][cb.offset] = b
	cb.offset++
	return nil
}

// Bytes copies the content out.
func (cb *Buffer) Bytes() []byte {
	var out []byte
	for i, c := range cb.chunks {
		n := chunkSize
		if i == len(cb.chunks)-1 {
			n = cb.offset
		}
		out = append(out, c[:n]...)
	}
	return out
}

var cbPool sync.Pool

// GetBuffer returns a Buffer from the pool.
func GetBuffer() *Buffer {
	if v := cbPool.Get(); v != nil {
		return v.(*Buffer)
	}
	return &Buffer{}
}

// PutBuffer resets cb and returns it to the pool; cb must not be used after.
func PutBuffer(cb *Buffer) {
	cb.Reset()
	cbPool.Put(cb)
}

type scrapeWork struct {
	body []byte
	fail bool
}

func (sw *scrapeWork) readData(cb *Buffer) error {
	if sw.fail {
		return errors.New("scrape failed")
	}
	for _, b := range sw.body {
		cb.WriteByte(b)
	}
	return nil
}

func readFromBuffer(dst *[]byte, cb *Buffer) error {
	*dst = append(*dst, cb.Bytes()...)
	return nil
}

// TargetResponse fetches the target the way a scrape does.
func (sw *scrapeWork) TargetResponse() ([]byte, error) {
	cb := GetBuffer()
	defer PutBuffer(cb)

	if err := sw.readData(cb); err != nil {
		return nil, err
	}

	var out []byte
	err := readFromBuffer(&out, cb)
	PutBuffer(cb) // want `doubleput`
	return out, err
}
