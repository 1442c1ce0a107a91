package fixed

import (
	"bufio"
	"io"
	"sync"
)

func NewBufioReaderSize(pool *sync.Pool, r io.Reader, size int) *bufio.Reader {
	if v := pool.Get(); v != nil {
		br := v.(*bufio.Reader)
		br.Reset(r)
		return br
	}
	return bufio.NewReaderSize(r, size)
}

func PutBufioReader(pool *sync.Pool, br *bufio.Reader) {
	br.Reset(nil)
	pool.Put(br)
}

func NewBufioWriterSize(pool *sync.Pool, w io.Writer, size int) *bufio.Writer {
	if v := pool.Get(); v != nil {
		bw := v.(*bufio.Writer)
		bw.Reset(w)
		return bw
	}
	return bufio.NewWriterSize(w, size)
}

func PutBufioWriter(pool *sync.Pool, bw *bufio.Writer) {
	bw.Reset(nil)
	pool.Put(bw)
}

type Round struct {
	readers   []*sync.Pool
	writers   []*sync.Pool
	readerIdx int
	writerIdx int
}

func NewRound(readBuf, writeBuf int) *Round {
	r := new(Round)
	r.readerIdx = readBuf
	r.readers = make([]*sync.Pool, readBuf)
	for i := 0; i < readBuf; i++ {
		r.readers[i] = new(sync.Pool)
	}
	r.writerIdx = writeBuf
	r.writers = make([]*sync.Pool, writeBuf)
	for i := 0; i < writeBuf; i++ {
		r.writers[i] = new(sync.Pool)
	}
	return r
}

func (r *Round) Reader(rn int) *sync.Pool {
	return r.readers[rn%r.readerIdx]
}

func (r *Round) Writer(rn int) *sync.Pool {
	return r.writers[rn%r.writerIdx]
}
