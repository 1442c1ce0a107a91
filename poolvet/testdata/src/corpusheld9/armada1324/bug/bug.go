// Package bug reproduces the shape of armadaproject/armada#1324
// (https://github.com/armadaproject/armada/pull/1324, commit e6d6ac5892):
// the Redis event repository kept one pool of zlib compressors and one of
// decompressors. ReadEvents borrowed a decompressor but its deferred
// cleanup returned it to the compressor pool, so the next writer that
// borrowed a "compressor" could get a decompressor. The project used
// go-commons-pool; here both pools are sync.Pool fields whose New is set in
// the constructor.
//
// Check: typemismatch (a value taken from one pool is put into a pool whose
// New returns another type; reported at the Put inside the deferred
// closure, where the wrong value goes into the pool).
package bug

import (
	"bytes"
	"compress/zlib"
	"io"
	"log"
	"sync"
)

type zlibCompressor struct {
	level int
}

func (c *zlibCompressor) Compress(data []byte) ([]byte, error) {
	var out bytes.Buffer
	w, err := zlib.NewWriterLevel(&out, c.level)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

type zlibDecompressor struct{}

func (d *zlibDecompressor) Decompress(data []byte) ([]byte, error) {
	r, err := zlib.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// EventRepository stores compressed events.
type EventRepository struct {
	stream           [][]byte
	compressorPool   sync.Pool
	decompressorPool sync.Pool
}

func NewEventRepository() *EventRepository {
	repo := &EventRepository{}
	repo.compressorPool.New = func() any { return &zlibCompressor{level: zlib.BestSpeed} }
	repo.decompressorPool.New = func() any { return &zlibDecompressor{} }
	return repo
}

func (repo *EventRepository) ReportEvents(events [][]byte) error {
	compressor := repo.compressorPool.Get()
	defer func(compressorPool *sync.Pool, object any) {
		compressorPool.Put(object)
	}(&repo.compressorPool, compressor)

	for _, e := range events {
		b, err := compressor.(*zlibCompressor).Compress(e)
		if err != nil {
			return err
		}
		repo.stream = append(repo.stream, b)
	}
	return nil
}

func (repo *EventRepository) ReadEvents() ([][]byte, error) {
	decompressor := repo.decompressorPool.Get()

	defer func(compressorPool *sync.Pool, object any) {
		compressorPool.Put(object) // want `typemismatch`
		log.Printf("returned compressor to pool")
	}(&repo.compressorPool, decompressor)

	messages := make([][]byte, 0, len(repo.stream))
	for _, m := range repo.stream {
		msg, err := decompressor.(*zlibDecompressor).Decompress(m)
		if err != nil {
			return nil, err
		}
		messages = append(messages, msg)
	}
	return messages, nil
}
