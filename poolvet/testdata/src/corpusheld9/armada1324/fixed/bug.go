// Package fixed is the fixed twin of armadaproject/armada#1324
// (https://github.com/armadaproject/armada/pull/1324, commit e6d6ac5892).
// The project's fix: the deferred cleanup of ReadEvents returns the
// decompressor to the decompressor pool it came from.
package fixed

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

	defer func(decompressorPool *sync.Pool, object any) {
		decompressorPool.Put(object)
		log.Printf("returned decompressor to pool")
	}(&repo.decompressorPool, decompressor)

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
