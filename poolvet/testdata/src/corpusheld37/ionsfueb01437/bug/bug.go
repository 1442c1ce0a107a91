// Package bug reproduces the shape of pion/ion-sfu commit eb01437
// (https://github.com/pion/ion-sfu/commit/eb0143755104757362d2390c50ac072fa430bbbc),
// "Fix(buffer): fix simulcast multiple calls to close buffer". Each incoming RTP
// stream gets a Buffer from the buffer Factory; Bind takes a bucket backing array
// from the factory's video or audio sync.Pool and Close hands it back. With
// simulcast, Close is reached more than once for the same Buffer (the SRTP read
// stream is closed when its layer goes away and again when the session is torn
// down), and every call puts the same bucket array back into the pool, so two
// later Binds can share one backing array. The fix wraps Close in a sync.Once.
// (The project pooled plain []byte; here the pools hold *[]byte so that only the
// double put remains.)
// Check: doubleput (Close puts b.bucket's array back while the Buffer still references it,
// and the next Close puts it again); reports at the two Puts in Buffer.Close.
package bug

import (
	"errors"
	"io"
	"strings"
	"sync"
)

const maxPktSize = 1500

type Bucket struct {
	buf     []byte
	bufp    *[]byte
	headSN  uint16
	step    int
	nack    bool
	maxStep int
}

func NewBucket(bufp *[]byte, nack bool) *Bucket {
	return &Bucket{
		buf:     *bufp,
		bufp:    bufp,
		nack:    nack,
		maxStep: len(*bufp)/maxPktSize - 1,
	}
}

func (b *Bucket) AddPacket(pkt []byte, sn uint16) []byte {
	b.headSN = sn
	off := b.step * maxPktSize
	if len(pkt)+off > len(b.buf) {
		return nil
	}
	n := copy(b.buf[off:], pkt)
	b.step++
	if b.step > b.maxStep {
		b.step = 0
	}
	return b.buf[off : off+n]
}

// Buffer contains all packets of one incoming stream.
type Buffer struct {
	sync.Mutex
	bucket     *Bucket
	codecType  string
	videoPool  *sync.Pool
	audioPool  *sync.Pool
	packetChan chan []byte
	closed     bool
	onClose    func()
}

func NewBuffer(videoPool, audioPool *sync.Pool) *Buffer {
	return &Buffer{
		videoPool:  videoPool,
		audioPool:  audioPool,
		packetChan: make(chan []byte, 100),
	}
}

func (b *Buffer) Bind(mimeType string) {
	b.Lock()
	defer b.Unlock()
	switch {
	case strings.HasPrefix(mimeType, "audio/"):
		b.codecType = "audio"
		b.bucket = NewBucket(b.audioPool.Get().(*[]byte), false)
	case strings.HasPrefix(mimeType, "video/"):
		b.codecType = "video"
		b.bucket = NewBucket(b.videoPool.Get().(*[]byte), true)
	default:
		b.codecType = ""
	}
}

func (b *Buffer) Write(pkt []byte) (int, error) {
	b.Lock()
	defer b.Unlock()
	if b.closed {
		return 0, io.EOF
	}
	if b.bucket == nil || len(pkt) < 4 {
		return 0, errors.New("buffer not bound")
	}
	sn := uint16(pkt[2])<<8 | uint16(pkt[3])
	if stored := b.bucket.AddPacket(pkt, sn); stored != nil {
		select {
		case b.packetChan <- stored:
		default:
		}
	}
	return len(pkt), nil
}

func (b *Buffer) Read(p []byte) (int, error) {
	pkt, ok := <-b.packetChan
	if !ok {
		return 0, io.EOF
	}
	return copy(p, pkt), nil
}

func (b *Buffer) Close() error {
	b.Lock()
	defer b.Unlock()

	b.closed = true
	if b.bucket != nil && b.codecType == "video" {
		b.videoPool.Put(b.bucket.bufp) // want `doubleput`
	}
	if b.bucket != nil && b.codecType == "audio" {
		b.audioPool.Put(b.bucket.bufp) // want `doubleput`
	}
	b.onClose()
	close(b.packetChan)
	return nil
}

func (b *Buffer) OnClose(fn func()) {
	b.onClose = fn
}

// Factory hands out one Buffer per SSRC and owns the bucket pools.
type Factory struct {
	sync.RWMutex
	videoPool  *sync.Pool
	audioPool  *sync.Pool
	rtpBuffers map[uint32]*Buffer
}

func NewBufferFactory() *Factory {
	return &Factory{
		videoPool: &sync.Pool{New: func() interface{} {
			b := make([]byte, 2*1000*1000)
			return &b
		}},
		audioPool: &sync.Pool{New: func() interface{} {
			b := make([]byte, maxPktSize*25)
			return &b
		}},
		rtpBuffers: make(map[uint32]*Buffer),
	}
}

func (f *Factory) GetOrNew(ssrc uint32) io.ReadWriteCloser {
	f.Lock()
	defer f.Unlock()
	if b, ok := f.rtpBuffers[ssrc]; ok {
		return b
	}
	b := NewBuffer(f.videoPool, f.audioPool)
	f.rtpBuffers[ssrc] = b
	b.OnClose(func() {
		f.Lock()
		delete(f.rtpBuffers, ssrc)
		f.Unlock()
	})
	return b
}

// readStream plays the SRTP read stream whose decrypted packets land in a Buffer.
type readStream struct {
	ssrc   uint32
	buffer io.ReadWriteCloser
}

func (r *readStream) Close() error {
	return r.buffer.Close()
}

// session keeps every read stream it accepted, one per simulcast layer.
type session struct {
	mu      sync.Mutex
	streams map[uint32]*readStream
	bf      *Factory
}

func (s *session) accept(ssrc uint32, mimeType string) *readStream {
	s.mu.Lock()
	defer s.mu.Unlock()
	buf := s.bf.GetOrNew(ssrc)
	buf.(*Buffer).Bind(mimeType)
	r := &readStream{ssrc: ssrc, buffer: buf}
	s.streams[ssrc] = r
	return r
}

// layerGone is called when one simulcast layer stops.
func (s *session) layerGone(ssrc uint32) {
	s.mu.Lock()
	r := s.streams[ssrc]
	s.mu.Unlock()
	if r != nil {
		r.Close()
	}
}

func (s *session) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.streams {
		r.Close()
	}
}
