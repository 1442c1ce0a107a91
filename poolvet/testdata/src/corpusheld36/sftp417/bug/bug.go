// Package bug reproduces the shape of pkg/sftp#417
// (https://github.com/pkg/sftp/pull/417, "A simpler bytes buffer pool",
// following https://github.com/pkg/sftp/pull/415):
// the client's concurrent File.WriteTo kept its read buffers in a sync.Pool of
// []byte. Every Put of a slice boxes the slice header into an interface, an
// allocation per buffer, so the pool made more allocations than allocating
// fresh buffers ("the common problem of []byte in sync.Pool causing many tiny
// allocations"). The fix replaced it with a small channel-backed bufPool.
//
// Check: nonpointer (a []byte put into a sync.Pool in the reduce loop).
package bug

import (
	"io"
	"sync"
)

type result struct {
	n   int
	err error
}

type clientConn struct {
	maxPacket             int
	maxConcurrentRequests int
	r                     io.ReaderAt
}

type File struct {
	mu     sync.Mutex
	c      *clientConn
	offset int64
	size   int64
}

// readChunkAt reads one packet worth of data at off, reusing ch for the reply.
func (f *File) readChunkAt(ch chan result, b []byte, off int64) (int, error) {
	go func() {
		n, err := f.c.r.ReadAt(b, off)
		ch <- result{n, err}
	}()
	res := <-ch
	return res.n, res.err
}

// WriteTo copies the file to w, reading up to maxConcurrentRequests packets
// at once and writing them in order.
func (f *File) WriteTo(w io.Writer) (written int64, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()

	concurrency := int(f.size/int64(f.c.maxPacket) + 1)
	if concurrency > f.c.maxConcurrentRequests {
		concurrency = f.c.maxConcurrentRequests
	}

	cancel := make(chan struct{})
	var wg sync.WaitGroup
	defer func() {
		close(cancel)
		wg.Wait()
	}()

	type writeWork struct {
		b   []byte
		n   int
		off int64
		err error

		next chan writeWork
	}
	writeCh := make(chan writeWork)

	type readWork struct {
		off       int64
		cur, next chan writeWork
	}
	readCh := make(chan readWork)

	// Slice: hand out chunks of work, each with its own sequencing channels.
	go func() {
		defer close(readCh)

		off := f.offset
		chunkSize := int64(f.c.maxPacket)

		cur := writeCh
		for {
			next := make(chan writeWork)
			rw := readWork{off: off, cur: cur, next: next}

			select {
			case readCh <- rw:
			case <-cancel:
				return
			}

			off += chunkSize
			cur = next
		}
	}()

	pool := sync.Pool{
		New: func() interface{} {
			return make([]byte, f.c.maxPacket)
		},
	}

	wg.Add(concurrency)
	for i := 0; i < concurrency; i++ {
		// Map: each worker reads its chunk into a pooled buffer.
		go func() {
			defer wg.Done()

			ch := make(chan result, 1)

			for rw := range readCh {
				b := pool.Get().([]byte)

				n, err := f.readChunkAt(ch, b, rw.off)

				ww := writeWork{b: b, n: n, off: rw.off, err: err, next: rw.next}

				select {
				case rw.cur <- ww:
				case <-cancel:
					return
				}

				if err != nil {
					return
				}
			}
		}()
	}

	// Reduce: write the chunks out in order.
	cur := writeCh
	for {
		packet, ok := <-cur
		if !ok {
			return written, nil
		}

		f.offset = packet.off + int64(packet.n)

		if packet.n > 0 {
			n, err := w.Write(packet.b[:packet.n])
			written += int64(n)
			if err != nil {
				return written, err
			}
		}

		if packet.err != nil {
			if packet.err == io.EOF {
				return written, nil
			}
			return written, packet.err
		}

		pool.Put(packet.b) // want `nonpointer`
		cur = packet.next
	}
}
