// Source: https://github.com/nats-io/nats-server/pull/4811
// (issue https://github.com/nats-io/nats-server/issues/4808, commit
// 0edbc50754b639bf99bb6e49a7e69e6d2a16f86c). Outside writer A's domain
// (social/fediverse platforms ran dry); nats-server is a general Go project.
//
// Bug: wsCollapsePtoNB, for browser WebSocket clients (maximum frame size
// 4096), split each pending pooled buffer nb[i] into frame-sized chunks by
// re-slicing it (b[:total], then b = b[total:]) and appended those chunks to
// the outbound buffers. flushOutbound later hands every written buffer back
// with nbPoolPut, which picks the pool by cap(). A tail chunk whose remaining
// cap happens to equal a pool size (e.g. the last 4096 bytes of a 64K buffer)
// is put into the medium pool while the whole 64K array it lives in is put
// into the large pool: overlapping memory goes back to the pools twice and
// two later users scribble over each other ("data corruption on the wire").
//
// Fix: copy each (part of a) pending buffer into a fresh pooled buffer
// (nbPoolGet + append) and put nb[i] back once, after it was copied.
//
// Check: doubleput (at the nbPoolPut in flushOutbound's loop that returns
// the chunks: a chunk sub-sliced from nb[i] is put back in addition to
// the buffer it aliases)
package bug

import (
	"net"
	"sync"
)

const nbPoolSizeSmall = 512   // Underlying array size of small buffer
const nbPoolSizeMedium = 4096 // Underlying array size of medium buffer
const nbPoolSizeLarge = 65536 // Underlying array size of large buffer

var nbPoolSmall = &sync.Pool{
	New: func() any {
		b := [nbPoolSizeSmall]byte{}
		return &b
	},
}

var nbPoolMedium = &sync.Pool{
	New: func() any {
		b := [nbPoolSizeMedium]byte{}
		return &b
	},
}

var nbPoolLarge = &sync.Pool{
	New: func() any {
		b := [nbPoolSizeLarge]byte{}
		return &b
	},
}

func nbPoolGet(sz int) []byte {
	switch {
	case sz <= nbPoolSizeSmall:
		return nbPoolSmall.Get().(*[nbPoolSizeSmall]byte)[:0]
	case sz <= nbPoolSizeMedium:
		return nbPoolMedium.Get().(*[nbPoolSizeMedium]byte)[:0]
	default:
		return nbPoolLarge.Get().(*[nbPoolSizeLarge]byte)[:0]
	}
}

func nbPoolPut(b []byte) {
	switch cap(b) {
	case nbPoolSizeSmall:
		b := (*[nbPoolSizeSmall]byte)(b[0:nbPoolSizeSmall])
		nbPoolSmall.Put(b)
	case nbPoolSizeMedium:
		b := (*[nbPoolSizeMedium]byte)(b[0:nbPoolSizeMedium])
		nbPoolMedium.Put(b)
	case nbPoolSizeLarge:
		b := (*[nbPoolSizeLarge]byte)(b[0:nbPoolSizeLarge])
		nbPoolLarge.Put(b)
	default:
		// Ignore frames that are the wrong size, this might happen
		// with WebSocket/MQTT messages as they are framed
	}
}

const (
	wsMaxFrameHeaderSize   = 14
	wsFrameSizeForBrowsers = 4096
)

type websocket struct {
	browser bool
	frames  net.Buffers
	fs      int64
}

type outbound struct {
	nb  net.Buffers // Pending buffers for send, each has fixed capacity as per nbPool.
	wnb net.Buffers // Working copy of "nb", reused on each flushOutbound call.
	pb  int64
}

type client struct {
	mu  sync.Mutex
	nc  net.Conn
	out outbound
	ws  *websocket
}

func wsFillFrameHeader(fh []byte, size int) int {
	fh[0] = 0x82
	switch {
	case size <= 125:
		fh[1] = byte(size)
		return 2
	case size < 65536:
		fh[1] = 126
		fh[2] = byte(size >> 8)
		fh[3] = byte(size)
		return 4
	}
	fh[1] = 127
	return 10
}

func (c *client) wsCollapsePtoNB() (net.Buffers, int64) {
	var nb net.Buffers
	var mfs int
	if c.ws.browser {
		mfs = wsFrameSizeForBrowsers
	}
	nb = c.out.nb
	bufs := c.ws.frames
	if len(nb) > 0 && mfs > 0 {
		var total int
		// We are limiting the frame size.
		startFrame := func() int {
			bufs = append(bufs, nbPoolGet(wsMaxFrameHeaderSize))
			return len(bufs) - 1
		}
		endFrame := func(idx, size int) {
			bufs[idx] = bufs[idx][:wsMaxFrameHeaderSize]
			n := wsFillFrameHeader(bufs[idx], size)
			bufs[idx] = bufs[idx][:n]
			c.out.pb += int64(n)
			c.ws.fs += int64(n + size)
		}

		fhIdx := startFrame()
		for i := 0; i < len(nb); i++ {
			b := nb[i]
			if total+len(b) <= mfs {
				bufs = append(bufs, b)
				total += len(b)
				continue
			}
			for len(b) > 0 {
				endStart := total != 0
				if endStart {
					endFrame(fhIdx, total)
				}
				total = len(b)
				if total >= mfs {
					total = mfs
				}
				if endStart {
					fhIdx = startFrame()
				}
				bufs = append(bufs, b[:total])
				b = b[total:]
			}
		}
		if total > 0 {
			endFrame(fhIdx, total)
		}
	}
	c.ws.frames = nil
	return bufs, c.ws.fs
}

func (c *client) flushOutbound() bool {
	collapsed, _ := c.wsCollapsePtoNB()
	c.out.nb = nil
	nc := c.nc

	c.mu.Unlock()

	c.out.wnb = append(c.out.wnb, collapsed...)
	var _orig [1024][]byte
	orig := append(_orig[:0], c.out.wnb...)
	startOfWnb := c.out.wnb[0:]

	// Actual write to the socket.
	_, err := c.out.wnb.WriteTo(nc)

	c.mu.Lock()

	// At this point, "wnb" has been mutated by WriteTo and any consumed
	// buffers have been lopped off the beginning, so in order to return
	// them to the pool, we need to look at the difference between "orig"
	// and "wnb".
	for i := 0; i < len(orig)-len(c.out.wnb); i++ {
		nbPoolPut(orig[i]) // want `doubleput`
	}

	c.out.wnb = append(startOfWnb[:0], c.out.wnb...)
	if len(c.out.wnb) == 0 && cap(c.out.wnb) > nbPoolSizeLarge*8 {
		c.out.wnb = nil
	}
	return err == nil
}
