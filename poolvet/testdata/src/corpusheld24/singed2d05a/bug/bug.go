// Package bug reproduces the shape of SagerNet/sing commit ed2d05a
// (https://github.com/SagerNet/sing/commit/ed2d05ab518ab85d85b00ad02c7566c25badde8c,
// "Fix copyPacketWaitWithPool"): the packet copy loop keeps the current pooled
// buffer in a variable captured by the newBuffer callback, which releases the
// previous buffer before allocating the next one. After a successful
// WritePacket the buffer belongs to the destination (which releases it when it
// is done, possibly later on another goroutine), but the loop still holds it,
// so the next WaitReadPacket -> newBuffer releases it a second time and its
// memory goes back to the pool while the destination still owns it. The fix
// clears the variable once WritePacket has taken the buffer.
//
// Check: doubleput (reported at the buffer.Release() in newBuffer, which puts
// back a buffer that the destination already owns and will release).
package bug

import "sync"

const udpBufferSize = 65535

var bufferPool = sync.Pool{
	New: func() interface{} {
		b := make([]byte, udpBufferSize)
		return &b
	},
}

// Get returns a pooled byte slice of length size.
func Get(size int) []byte {
	bp := bufferPool.Get().(*[]byte)
	return (*bp)[:size]
}

// Put returns a byte slice obtained from Get.
func Put(b []byte) {
	b = b[:cap(b)]
	bufferPool.Put(&b)
}

// Buffer is a pooled packet buffer.
type Buffer struct {
	data    []byte
	start   int
	end     int
	managed bool
	closed  bool
}

func NewSize(size int) *Buffer {
	if size == 0 {
		return &Buffer{}
	} else if size > udpBufferSize {
		return &Buffer{data: make([]byte, size)}
	}
	return &Buffer{data: Get(size), managed: true}
}

// With wraps data without owning it.
func With(data []byte) *Buffer {
	return &Buffer{data: data, end: len(data)}
}

func (b *Buffer) Slice() []byte { return b.data }
func (b *Buffer) Start() int    { return b.start }
func (b *Buffer) Len() int      { return b.end - b.start }
func (b *Buffer) Bytes() []byte { return b.data[b.start:b.end] }

func (b *Buffer) Resize(start, end int) {
	b.start = start
	b.end = start + end
}

// Release returns the buffer's memory to the pool.
func (b *Buffer) Release() {
	if b == nil || b.closed || !b.managed {
		return
	}
	Put(b.data)
	*b = Buffer{closed: true}
}

// PacketWriter takes ownership of the buffer passed to WritePacket.
type PacketWriter interface {
	WritePacket(buffer *Buffer, destination string) error
}

// PacketReadWaiter reads one packet into a buffer obtained from newBuffer.
type PacketReadWaiter interface {
	WaitReadPacket(newBuffer func() *Buffer) (destination string, err error)
}

// queuedPacketWriter hands packets to a writer goroutine, which releases them
// once written.
type queuedPacketWriter struct {
	queue chan *Buffer
	out   func([]byte) error
}

func (w *queuedPacketWriter) WritePacket(buffer *Buffer, destination string) error {
	w.queue <- buffer
	return nil
}

func (w *queuedPacketWriter) loop() {
	for buffer := range w.queue {
		_ = w.out(buffer.Bytes())
		buffer.Release()
	}
}

func copyPacketWaitWithPool(destinationConn PacketWriter, source PacketReadWaiter, frontHeadroom, rearHeadroom int) (n int64, err error) {
	bufferSize := udpBufferSize
	var (
		buffer     *Buffer
		readBuffer *Buffer
	)
	newBuffer := func() *Buffer {
		if buffer != nil {
			buffer.Release() // want `doubleput`
		}
		buffer = NewSize(bufferSize)
		readBufferRaw := buffer.Slice()
		readBuffer = With(readBufferRaw[:len(readBufferRaw)-rearHeadroom])
		readBuffer.Resize(frontHeadroom, 0)
		return readBuffer
	}
	var destination string
	for {
		destination, err = source.WaitReadPacket(newBuffer)
		if err != nil {
			buffer.Release()
			return
		}
		dataLen := readBuffer.Len()
		buffer.Resize(readBuffer.Start(), dataLen)
		err = destinationConn.WritePacket(buffer, destination)
		if err != nil {
			buffer.Release()
			return
		}
		n += int64(dataLen)
	}
}
