// Package bug reproduces the shape of MetaCubeX/mihomo#1851
// (https://github.com/MetaCubeX/mihomo/pull/1851, commit 775f377d4 "fix: do not use buffer for
// cmdUpdatePaddingScheme"): in the anytls session receive loop, the payload of an
// cmdUpdatePaddingScheme frame is read into a buffer from the size-classed pool
// (common/pool). On the client, padding.UpdatePaddingScheme parses it into a new
// PaddingFactory whose RawScheme field is the very same slice, and publishes the factory in
// the session's shared atomic s.padding. The loop then pool.Put()s the buffer, so the
// long-lived padding factory keeps pointing into memory the pool hands to the next frame.
// The fix reads the scheme into a freshly allocated slice and never pools it.
// Check: useafterput (the pooled buffer is stored, via UpdatePaddingScheme, into the
// PaddingFactory kept in s.padding, and outlives the pool.Put that follows).
package bug

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log"
	"math/bits"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
)

// ---- common/pool ----

var defaultAllocator = NewAllocator()

// Allocator hands out []byte from one sync.Pool per power-of-two size.
type Allocator struct {
	buffers [11]sync.Pool
}

func NewAllocator() *Allocator {
	return &Allocator{
		buffers: [...]sync.Pool{ // 64B -> 64K
			{New: func() any { return new([1 << 6]byte) }},
			{New: func() any { return new([1 << 7]byte) }},
			{New: func() any { return new([1 << 8]byte) }},
			{New: func() any { return new([1 << 9]byte) }},
			{New: func() any { return new([1 << 10]byte) }},
			{New: func() any { return new([1 << 11]byte) }},
			{New: func() any { return new([1 << 12]byte) }},
			{New: func() any { return new([1 << 13]byte) }},
			{New: func() any { return new([1 << 14]byte) }},
			{New: func() any { return new([1 << 15]byte) }},
			{New: func() any { return new([1 << 16]byte) }},
		},
	}
}

func (alloc *Allocator) Get(size int) []byte {
	switch {
	case size < 0:
		panic("alloc.Get: len out of range")
	case size == 0:
		return nil
	case size > 65536:
		return make([]byte, size)
	default:
		var index uint16
		if size > 64 {
			index = msb(size)
			if size != 1<<index {
				index += 1
			}
			index -= 6
		}
		buffer := alloc.buffers[index].Get()
		switch index {
		case 0:
			return buffer.(*[1 << 6]byte)[:size]
		case 1:
			return buffer.(*[1 << 7]byte)[:size]
		case 2:
			return buffer.(*[1 << 8]byte)[:size]
		case 3:
			return buffer.(*[1 << 9]byte)[:size]
		case 4:
			return buffer.(*[1 << 10]byte)[:size]
		case 5:
			return buffer.(*[1 << 11]byte)[:size]
		case 6:
			return buffer.(*[1 << 12]byte)[:size]
		case 7:
			return buffer.(*[1 << 13]byte)[:size]
		case 8:
			return buffer.(*[1 << 14]byte)[:size]
		case 9:
			return buffer.(*[1 << 15]byte)[:size]
		case 10:
			return buffer.(*[1 << 16]byte)[:size]
		default:
			panic("invalid pool index")
		}
	}
}

func (alloc *Allocator) Put(buf []byte) error {
	if cap(buf) == 0 || cap(buf) > 65536 {
		return nil
	}
	bits := msb(cap(buf))
	if cap(buf) != 1<<bits {
		return errors.New("allocator Put() incorrect buffer size")
	}
	if cap(buf) < 1<<6 {
		return nil
	}
	bits -= 6
	buf = buf[:cap(buf)]
	switch bits {
	case 0:
		alloc.buffers[bits].Put((*[1 << 6]byte)(buf))
	case 1:
		alloc.buffers[bits].Put((*[1 << 7]byte)(buf))
	case 2:
		alloc.buffers[bits].Put((*[1 << 8]byte)(buf))
	case 3:
		alloc.buffers[bits].Put((*[1 << 9]byte)(buf))
	case 4:
		alloc.buffers[bits].Put((*[1 << 10]byte)(buf))
	case 5:
		alloc.buffers[bits].Put((*[1 << 11]byte)(buf))
	case 6:
		alloc.buffers[bits].Put((*[1 << 12]byte)(buf))
	case 7:
		alloc.buffers[bits].Put((*[1 << 13]byte)(buf))
	case 8:
		alloc.buffers[bits].Put((*[1 << 14]byte)(buf))
	case 9:
		alloc.buffers[bits].Put((*[1 << 15]byte)(buf))
	case 10:
		alloc.buffers[bits].Put((*[1 << 16]byte)(buf))
	default:
		panic("invalid pool index")
	}
	return nil
}

func msb(size int) uint16 {
	return uint16(bits.Len32(uint32(size)) - 1)
}

func poolGet(size int) []byte { return defaultAllocator.Get(size) }

func poolPut(buf []byte) error { return defaultAllocator.Put(buf) }

// ---- transport/anytls/padding ----

type PaddingFactory struct {
	scheme    map[string]string
	RawScheme []byte
	Stop      uint32
	Md5       string
}

func stringMapFromBytes(b []byte) map[string]string {
	m := make(map[string]string)
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := bytes.Cut(sc.Bytes(), []byte("="))
		if ok {
			m[string(k)] = string(v)
		}
	}
	return m
}

func NewPaddingFactory(rawScheme []byte) *PaddingFactory {
	p := &PaddingFactory{
		RawScheme: rawScheme,
		Md5:       fmt.Sprintf("%x", md5.Sum(rawScheme)),
	}
	scheme := stringMapFromBytes(rawScheme)
	if len(scheme) == 0 {
		return nil
	}
	stop, err := strconv.Atoi(scheme["stop"])
	if err != nil {
		return nil
	}
	p.Stop = uint32(stop)
	p.scheme = scheme
	return p
}

func UpdatePaddingScheme(rawScheme []byte, to *atomic.Pointer[PaddingFactory]) bool {
	if p := NewPaddingFactory(rawScheme); p != nil {
		to.Store(p)
		return true
	}
	return false
}

// ---- transport/anytls/session ----

const (
	cmdWaste               = 0
	cmdSYN                 = 1
	cmdPSH                 = 2
	cmdFIN                 = 3
	cmdSettings            = 4
	cmdAlert               = 5
	cmdUpdatePaddingScheme = 6
	headerOverHeadSize     = 7
)

type rawHeader [headerOverHeadSize]byte

func (h rawHeader) Cmd() byte        { return h[0] }
func (h rawHeader) StreamID() uint32 { return binary.BigEndian.Uint32(h[1:]) }
func (h rawHeader) Length() uint16   { return binary.BigEndian.Uint16(h[5:]) }

type Session struct {
	conn     net.Conn
	isClient bool
	padding  *atomic.Pointer[PaddingFactory]
}

func (s *Session) recvLoop() error {
	var hdr rawHeader
	for {
		if _, err := io.ReadFull(s.conn, hdr[:]); err != nil {
			return err
		}
		switch hdr.Cmd() {
		case cmdWaste:
			if hdr.Length() > 0 {
				buffer := poolGet(int(hdr.Length()))
				if _, err := io.ReadFull(s.conn, buffer); err != nil {
					poolPut(buffer)
					return err
				}
				poolPut(buffer)
			}
		case cmdAlert:
			if hdr.Length() > 0 {
				buffer := poolGet(int(hdr.Length()))
				if _, err := io.ReadFull(s.conn, buffer); err != nil {
					poolPut(buffer)
					return err
				}
				if s.isClient {
					log.Printf("[Alert from server] %s", string(buffer))
				}
				poolPut(buffer)
				return nil
			}
		case cmdUpdatePaddingScheme:
			if hdr.Length() > 0 {
				buffer := poolGet(int(hdr.Length()))
				if _, err := io.ReadFull(s.conn, buffer); err != nil {
					poolPut(buffer)
					return err
				}
				if s.isClient {
					if UpdatePaddingScheme(buffer, s.padding) { // want `useafterput`
						log.Printf("[Update padding succeed] %x", md5.Sum(buffer))
					} else {
						log.Printf("[Update padding failed] %x", md5.Sum(buffer))
					}
				}
				poolPut(buffer)
			}
		default:
			if hdr.Length() > 0 {
				return errors.New("unexpected payload")
			}
		}
	}
}
