// Source: https://github.com/ionorg/ion-sfu/commit/bdb55dba24f5e2e3db1160b133672dcfffd960a6
// ("fix(sfu): dont allocate on sync pool", pkg/buffer/{factory,bucket,buffer}.go).
//
// Bug: the buffer Factory's videoPool and audioPool (sync.Pool) stored raw
// []byte slices: New returned make([]byte, ...), Bind did
// NewBucket(pool.Get().([]byte)) and Buffer.Close returned the bucket's
// slice with pool.Put(b.bucket.buf). Every Put of a slice header into the
// interface{} allocates, defeating the pool.
// Fix: the pools hold *[]byte; New returns &b, the Bucket keeps the pointer
// it got (src *[]byte) next to the dereferenced slice, and Close puts
// b.bucket.src back.
//
// Check: nonpointer (at the two Puts in Buffer.Close that hand the []byte
// bucket.buf to the sync.Pool)
package fixed

import (
	"encoding/binary"
	"io"
	"math"
	"strings"
	"sync"
)

const maxPktSize = 1500

type RTPCodecType int

const (
	RTPCodecTypeAudio RTPCodecType = iota + 1
	RTPCodecTypeVideo
)

type Bucket struct {
	buf []byte
	src *[]byte

	init     bool
	step     int
	headSN   uint16
	maxSteps int
}

func NewBucket(buf *[]byte) *Bucket {
	return &Bucket{
		src:      buf,
		buf:      *buf,
		maxSteps: int(math.Floor(float64(len(*buf))/float64(maxPktSize))) - 1,
	}
}

func (b *Bucket) AddPacket(pkt []byte, sn uint16) []byte {
	if !b.init {
		b.headSN = sn - 1
		b.init = true
	}
	b.headSN = sn
	return b.push(pkt)
}

func (b *Bucket) push(pkt []byte) []byte {
	binary.BigEndian.PutUint16(b.buf[b.step*maxPktSize:], uint16(len(pkt)))
	off := b.step*maxPktSize + 2
	copy(b.buf[off:], pkt)
	b.step++
	if b.step > b.maxSteps {
		b.step = 0
	}
	return b.buf[off : off+len(pkt)]
}

type Factory struct {
	sync.RWMutex
	videoPool  *sync.Pool
	audioPool  *sync.Pool
	rtpBuffers map[uint32]*Buffer
}

func NewBufferFactory(trackingPackets int) *Factory {
	return &Factory{
		videoPool: &sync.Pool{
			New: func() interface{} {
				b := make([]byte, trackingPackets*maxPktSize)
				return &b
			},
		},
		audioPool: &sync.Pool{
			New: func() interface{} {
				b := make([]byte, maxPktSize*25)
				return &b
			},
		},
		rtpBuffers: make(map[uint32]*Buffer),
	}
}

func (f *Factory) GetOrNew(ssrc uint32) io.ReadWriteCloser {
	f.Lock()
	defer f.Unlock()
	if reader, ok := f.rtpBuffers[ssrc]; ok {
		return reader
	}
	buffer := NewBuffer(ssrc, f.videoPool, f.audioPool)
	f.rtpBuffers[ssrc] = buffer
	buffer.OnClose(func() {
		f.Lock()
		delete(f.rtpBuffers, ssrc)
		f.Unlock()
	})
	return buffer
}

// Buffer contains all packets
type Buffer struct {
	sync.Mutex
	bucket    *Bucket
	videoPool *sync.Pool
	audioPool *sync.Pool
	codecType RTPCodecType
	closeOnce sync.Once
	mediaSSRC uint32
	bound     bool
	closed    bool
	mime      string

	onClose func()
}

func NewBuffer(ssrc uint32, vp, ap *sync.Pool) *Buffer {
	return &Buffer{
		mediaSSRC: ssrc,
		videoPool: vp,
		audioPool: ap,
	}
}

func (b *Buffer) Bind(mimeType string) {
	b.Lock()
	defer b.Unlock()

	b.mime = strings.ToLower(mimeType)
	switch {
	case strings.HasPrefix(b.mime, "audio/"):
		b.codecType = RTPCodecTypeAudio
		b.bucket = NewBucket(b.audioPool.Get().(*[]byte))
	case strings.HasPrefix(b.mime, "video/"):
		b.codecType = RTPCodecTypeVideo
		b.bucket = NewBucket(b.videoPool.Get().(*[]byte))
	default:
		b.codecType = RTPCodecType(0)
	}
	b.bound = true
}

func (b *Buffer) Write(pkt []byte) (n int, err error) {
	b.Lock()
	defer b.Unlock()
	if b.closed {
		return 0, io.EOF
	}
	if b.bound && b.bucket != nil && len(pkt) >= 4 {
		b.bucket.AddPacket(pkt, binary.BigEndian.Uint16(pkt[2:4]))
	}
	return len(pkt), nil
}

func (b *Buffer) Read(buff []byte) (n int, err error) {
	return 0, io.EOF
}

func (b *Buffer) Close() error {
	b.Lock()
	defer b.Unlock()

	b.closeOnce.Do(func() {
		if b.bucket != nil && b.codecType == RTPCodecTypeVideo {
			b.videoPool.Put(b.bucket.src)
		}
		if b.bucket != nil && b.codecType == RTPCodecTypeAudio {
			b.audioPool.Put(b.bucket.src)
		}
		b.closed = true
		if b.onClose != nil {
			b.onClose()
		}
	})
	return nil
}

func (b *Buffer) OnClose(fn func()) {
	b.onClose = fn
}
