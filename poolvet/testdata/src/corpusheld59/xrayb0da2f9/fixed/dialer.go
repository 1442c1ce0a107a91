// Source: https://github.com/XTLS/Xray-core/commit/b0da2f9ee2f246da3e6e4e5490812037bb06c707
// ("XHTTP: fix two data races in the client", transport/internet/splithttp/dialer.go).
//
// Bug: uploadWriter.Write splits the payload into pooled buf.Buffers and hands
// each one to the upload pipe with WriteMultiBuffer. From that moment the
// pipe's reader owns the buffer: it drains it into the POST body through
// MultiBufferContainer.Read -> SplitBytes -> Buffer.Read, which clears it, and
// then Release()s it back to the buffer pool. The writer still read
// buff.Len() after the hand-off, so it raced with the reader (and, per the
// commit, got a short or wrong count, duplicating proxied data or panicking
// on the slice bounds once the buffer had been recycled).
//
// Fix: take the length before handing the buffer to the pipe.
//
// Check: useafterput (buff is handed to the pipe, whose reader releases it to
// the pool; the buff.Len() after WriteMultiBuffer uses the released buffer)
package fixed

import (
	"errors"
	"io"
	"sync"
)

// Size of a regular buffer.
const Size = 8192

var ErrBufferFull = errors.New("buffer is full")

// bytespool.GetPool(Size)
var pool = &sync.Pool{
	New: func() interface{} {
		return make([]byte, Size)
	},
}

// Buffer is a recyclable allocation of a byte array. Buffer.Release() recycles
// the buffer into an internal buffer pool.
type Buffer struct {
	v     []byte
	start int32
	end   int32
}

func New() *Buffer {
	buf := pool.Get().([]byte)
	if cap(buf) >= Size {
		buf = buf[:Size]
	} else {
		buf = make([]byte, Size)
	}
	return &Buffer{v: buf}
}

// Release recycles the buffer into an internal buffer pool.
func (b *Buffer) Release() {
	if b == nil || b.v == nil {
		return
	}
	p := b.v
	b.v = nil
	b.Clear()
	if cap(p) == Size {
		pool.Put(p)
	}
}

func (b *Buffer) Clear() {
	b.start = 0
	b.end = 0
}

func (b *Buffer) Len() int32 {
	if b == nil {
		return 0
	}
	return b.end - b.start
}

func (b *Buffer) IsEmpty() bool { return b.Len() == 0 }

func (b *Buffer) IsFull() bool { return b != nil && b.end == int32(len(b.v)) }

func (b *Buffer) Write(data []byte) (int, error) {
	nBytes := copy(b.v[b.end:], data)
	b.end += int32(nBytes)
	if nBytes < len(data) {
		return nBytes, ErrBufferFull
	}
	return nBytes, nil
}

func (b *Buffer) Read(data []byte) (int, error) {
	if b.Len() == 0 {
		return 0, io.EOF
	}
	nBytes := copy(data, b.v[b.start:b.end])
	if int32(nBytes) == b.Len() {
		b.Clear()
	} else {
		b.start += int32(nBytes)
	}
	return nBytes, nil
}

type MultiBuffer []*Buffer

func (mb MultiBuffer) IsEmpty() bool {
	for _, b := range mb {
		if !b.IsEmpty() {
			return false
		}
	}
	return true
}

func MergeMulti(dest MultiBuffer, src MultiBuffer) (MultiBuffer, MultiBuffer) {
	dest = append(dest, src...)
	for idx := range src {
		src[idx] = nil
	}
	return dest, src[:0]
}

func MergeBytes(dest MultiBuffer, src []byte) MultiBuffer {
	n := len(dest)
	if n > 0 && !dest[n-1].IsFull() {
		nBytes, _ := dest[n-1].Write(src)
		src = src[nBytes:]
	}
	for len(src) > 0 {
		b := New()
		nBytes, _ := b.Write(src)
		src = src[nBytes:]
		dest = append(dest, b)
	}
	return dest
}

func SplitBytes(mb MultiBuffer, b []byte) (MultiBuffer, int) {
	totalBytes := 0
	endIndex := -1
	for i := range mb {
		pBuffer := mb[i]
		nBytes, _ := pBuffer.Read(b)
		totalBytes += nBytes
		b = b[nBytes:]
		if !pBuffer.IsEmpty() {
			endIndex = i
			break
		}
		pBuffer.Release()
		mb[i] = nil
	}
	if endIndex == -1 {
		mb = mb[:0]
	} else {
		mb = mb[endIndex:]
	}
	return mb, totalBytes
}

type MultiBufferContainer struct {
	MultiBuffer
}

func (c *MultiBufferContainer) Read(b []byte) (int, error) {
	if c.MultiBuffer.IsEmpty() {
		return 0, io.EOF
	}
	mb, nBytes := SplitBytes(c.MultiBuffer, b)
	c.MultiBuffer = mb
	return nBytes, nil
}

func (c *MultiBufferContainer) Write(b []byte) (int, error) {
	c.MultiBuffer = MergeBytes(c.MultiBuffer, b)
	return len(b), nil
}

// pipe (transport/pipe), trimmed.
type pipe struct {
	sync.Mutex
	data       MultiBuffer
	readSignal chan struct{}
}

func (p *pipe) WriteMultiBuffer(mb MultiBuffer) error {
	if mb.IsEmpty() {
		return nil
	}
	p.Lock()
	if p.data == nil {
		p.data = mb
	} else {
		p.data, _ = MergeMulti(p.data, mb)
	}
	p.Unlock()
	select {
	case p.readSignal <- struct{}{}:
	default:
	}
	return nil
}

func (p *pipe) ReadMultiBuffer() (MultiBuffer, error) {
	for {
		p.Lock()
		data := p.data
		p.data = nil
		p.Unlock()
		if data != nil {
			return data, nil
		}
		<-p.readSignal
	}
}

type Writer struct{ pipe *pipe }

func (w *Writer) WriteMultiBuffer(mb MultiBuffer) error { return w.pipe.WriteMultiBuffer(mb) }

type Reader struct{ pipe *pipe }

func (r *Reader) ReadMultiBuffer() (MultiBuffer, error) { return r.pipe.ReadMultiBuffer() }

// uploadBody is the POST body fed from the pipe's reader side.
func uploadBody(r *Reader, out io.Writer) error {
	var c MultiBufferContainer
	p := make([]byte, 4096)
	for {
		mb, err := r.ReadMultiBuffer()
		if err != nil {
			return err
		}
		c.MultiBuffer = mb
		for {
			n, err := c.Read(p)
			if err == io.EOF {
				break
			}
			out.Write(p[:n])
		}
	}
}

// The MultiBuffer pipe accepts any single WriteMultiBuffer call even if that
// single MultiBuffer exceeds the size limit, so a potentially too large write
// is split up into multiple.
type uploadWriter struct {
	*Writer
	maxLen int32
}

func (w uploadWriter) Write(b []byte) (int, error) {
	buffer := MultiBufferContainer{}
	buffer.Write(b)

	var writed int
	for _, buff := range buffer.MultiBuffer {
		// take the length before handing the buffer over: once the pipe has
		// it, its reader owns it and may already have cleared it
		n := int(buff.Len())
		err := w.WriteMultiBuffer(MultiBuffer{buff})
		if err != nil {
			return writed, err
		}
		writed += n
	}
	return writed, nil
}

func newUpload(out io.Writer) uploadWriter {
	p := &pipe{readSignal: make(chan struct{}, 1)}
	go uploadBody(&Reader{pipe: p}, out)
	return uploadWriter{Writer: &Writer{pipe: p}, maxLen: 1 << 20}
}
