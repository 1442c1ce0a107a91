// Package bug reproduces the shape of MetaCubeX/mihomo commit 775f377d
// (https://github.com/MetaCubeX/mihomo/commit/775f377d458ed555c81083da8b766fe91e51d49d):
// in the anytls session receive loop, the client reads a cmdUpdatePaddingScheme
// payload into a buffer taken from the shared size-class allocator and hands it to
// UpdatePaddingScheme. That builds a PaddingFactory whose RawScheme field aliases
// the pooled bytes and publishes it in the session's atomic padding value; the loop
// then returns the buffer to the allocator. The published factory keeps pointing at
// memory that the next Get (any other frame) overwrites. The fix reads the scheme
// into a freshly made slice and never pools it.
//
// Fixed twin: the scheme is read into a freshly allocated slice that is never
// pooled.
package bug

import (
	"crypto/md5"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
)

// ---- common/pool: size-class allocator over sync.Pool ----

type allocator struct {
	small sync.Pool // *[256]byte
	large sync.Pool // *[4096]byte
}

var defaultAllocator = &allocator{
	small: sync.Pool{New: func() any { return new([256]byte) }},
	large: sync.Pool{New: func() any { return new([4096]byte) }},
}

func (a *allocator) Get(size int) []byte {
	switch {
	case size <= 0:
		return nil
	case size <= 256:
		return a.small.Get().(*[256]byte)[:size]
	case size <= 4096:
		return a.large.Get().(*[4096]byte)[:size]
	default:
		return make([]byte, size)
	}
}

func (a *allocator) Put(buf []byte) error {
	switch cap(buf) {
	case 256:
		a.small.Put((*[256]byte)(buf[:256]))
	case 4096:
		a.large.Put((*[4096]byte)(buf[:4096]))
	default:
		return errors.New("allocator Put() incorrect buffer size")
	}
	return nil
}

func poolGet(size int) []byte { return defaultAllocator.Get(size) }

func poolPut(buf []byte) error { return defaultAllocator.Put(buf) }

// ---- transport/anytls/padding ----

type PaddingFactory struct {
	scheme    map[string]string
	RawScheme []byte
	Md5       string
}

func stringMapFromBytes(b []byte) map[string]string {
	m := make(map[string]string)
	for _, line := range strings.Split(string(b), "\n") {
		kv := strings.SplitN(line, "=", 2)
		if len(kv) == 2 {
			m[kv[0]] = kv[1]
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
	cmdSettings            = 4
	cmdUpdatePaddingScheme = 7
)

type frameHeader struct {
	cmd    byte
	length uint16
}

type Session struct {
	conn     io.ReadWriter
	isClient bool
	padding  *atomic.Pointer[PaddingFactory]
}

func (s *Session) readHeader() (frameHeader, error) {
	var h [3]byte
	if _, err := io.ReadFull(s.conn, h[:]); err != nil {
		return frameHeader{}, err
	}
	return frameHeader{cmd: h[0], length: uint16(h[1])<<8 | uint16(h[2])}, nil
}

func (s *Session) recvLoop() error {
	for {
		hdr, err := s.readHeader()
		if err != nil {
			return err
		}
		switch hdr.cmd {
		case cmdWaste:
			if hdr.length > 0 {
				buffer := poolGet(int(hdr.length))
				if _, err := io.ReadFull(s.conn, buffer); err != nil {
					poolPut(buffer)
					return err
				}
				poolPut(buffer)
			}
		case cmdSettings:
			if hdr.length > 0 {
				buffer := poolGet(int(hdr.length))
				if _, err := io.ReadFull(s.conn, buffer); err != nil {
					poolPut(buffer)
					return err
				}
				if !s.isClient {
					m := stringMapFromBytes(buffer)
					if m["padding-md5"] != s.padding.Load().Md5 {
						if _, err := s.conn.Write(s.padding.Load().RawScheme); err != nil {
							poolPut(buffer)
							return err
						}
					}
				}
				poolPut(buffer)
			}
		case cmdUpdatePaddingScheme:
			if hdr.length > 0 {
				// The scheme outlives this frame (it is published in s.padding),
				// so it gets its own memory instead of a pooled buffer.
				rawScheme := make([]byte, int(hdr.length))
				if _, err := io.ReadFull(s.conn, rawScheme); err != nil {
					return err
				}
				if s.isClient {
					if UpdatePaddingScheme(rawScheme, s.padding) {
						fmt.Printf("[Update padding succeed] %x\n", md5.Sum(rawScheme))
					} else {
						fmt.Printf("[Update padding failed] %x\n", md5.Sum(rawScheme))
					}
				}
			}
		default:
		}
	}
}
