// Package bug reproduces the shape of grafana/gomemcache commit dd07f98
// (https://github.com/grafana/gomemcache/commit/dd07f9807b07bd8d43891aa2eba78b3009258df4):
// the memcache client lets callers plug in an Allocator for item values. Its
// interface traded plain []byte, so an allocator backed by a sync.Pool (the
// intended use, e.g. the benchmark allocator) had to Put the slice header by
// value, boxing it into an interface and allocating on every Put (the code
// carried a staticcheck suppression for it). The fix changes Get/Put to
// *[]byte and stores pointers in the pool.
//
// Check: nonpointer (the pooled allocator Puts a []byte into its sync.Pool).
package bug

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"sync"
)

var (
	resultEnd = []byte("END\r\n")
	crlf      = []byte("\r\n")
)

// Allocator provides the buffers that hold item values.
type Allocator interface {
	// Get returns a byte slice with sz length and at least sz capacity.
	Get(sz int) []byte
	// Put returns the byte slice; the client only calls it on error paths.
	Put(b []byte)
}

type defaultAllocator struct{}

func (d defaultAllocator) Get(sz int) []byte { return make([]byte, sz) }
func (d defaultAllocator) Put(_ []byte)      {}

// poolAllocator recycles value buffers of one known size.
type poolAllocator struct {
	pool         sync.Pool
	expectedSize int
}

func newPoolAllocator(dataSize int) Allocator {
	return &poolAllocator{
		expectedSize: dataSize,
		pool: sync.Pool{
			New: func() interface{} {
				return make([]byte, dataSize)
			},
		},
	}
}

func (p *poolAllocator) Get(sz int) []byte {
	b := p.pool.Get().([]byte)
	if p.expectedSize != sz {
		panic("unexpected allocation size in allocator")
	}
	return b[:sz]
}

func (p *poolAllocator) Put(b []byte) {
	p.pool.Put(b) // want `nonpointer`
}

// Options carries per-call settings.
type Options struct {
	Alloc Allocator
}

// Item is one cache entry.
type Item struct {
	Key   string
	Value []byte
	Flags uint32
}

// Client talks to memcache servers.
type Client struct{}

func scanGetResponseLine(line []byte, it *Item) (int, error) {
	var size int
	n, err := fmt.Sscanf(string(line), "VALUE %s %d %d\r\n", &it.Key, &it.Flags, &size)
	if err != nil || n != 3 {
		return -1, fmt.Errorf("memcache: unexpected line in get response: %q", line)
	}
	return size, nil
}

func (c *Client) parseGetResponse(r *bufio.Reader, opts *Options, cb func(*Item)) error {
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return err
		}
		if bytes.Equal(line, resultEnd) {
			return nil
		}
		it := new(Item)
		size, err := scanGetResponseLine(line, it)
		if err != nil {
			return err
		}
		buffSize := size + 2
		it.Value = opts.Alloc.Get(buffSize)
		_, err = io.ReadFull(r, it.Value)
		if err != nil {
			opts.Alloc.Put(it.Value)
			return err
		}
		if !bytes.HasSuffix(it.Value, crlf) {
			opts.Alloc.Put(it.Value)
			return fmt.Errorf("memcache: corrupt get result read")
		}
		it.Value = it.Value[:size]
		cb(it)
	}
}

// GetAll parses a get response and releases every value after use.
func GetAll(c *Client, r *bufio.Reader, size int) (int, error) {
	opts := &Options{Alloc: newPoolAllocator(size + 2)}
	total := 0
	err := c.parseGetResponse(r, opts, func(it *Item) {
		total += len(it.Value) + len(strconv.Itoa(int(it.Flags)))
		opts.Alloc.Put(it.Value)
	})
	return total, err
}
