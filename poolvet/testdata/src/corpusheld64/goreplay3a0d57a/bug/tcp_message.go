// Source: https://github.com/buger/goreplay/commit/3a0d57a9b458cd611206a29b663fd513bada7e41
// ("Do not use buffer pool for messages: This buffers are get re-used and
// data gets corrupted").
//
// Bug: tcp.Message.Data() takes a *buf from the channel-based bufferPool,
// copies the packet payloads into it, remembers it in m.dataBuf and returns
// m.dataBuf.b[:n], a slice of the pooled buffer. RAWInput.PluginRead stores
// that slice in msg.Data, then calls msgTCP.Finalize(), which puts
// m.dataBuf back into bufferPool, and returns &msg to the output plugins.
// The next message's Data() gets the same buffer from the pool and
// overwrites the bytes the previous message is still being replayed from.
//
// Fix: the buffer pool for message data is removed; Data() copies into a
// freshly allocated slice and Finalize no longer puts a data buffer back.
//
// Check: useafterput (msg.Data aliases the pooled buf returned to
// bufferPool by msgTCP.Finalize(); reported at the return that hands it to
// the caller after the Put)
package bug

import (
	"time"
)

var bufferPool = NewBufferPool(1000, 1)

type buf struct {
	b       []byte
	created time.Time
	gc      bool
}

type bufPool struct {
	buffers chan *buf
	ttl     int
}

func NewBufferPool(max int, ttl int) *bufPool {
	pool := &bufPool{
		buffers: make(chan *buf, max),
		ttl:     ttl,
	}

	// Ensure that memory released over time
	go func() {
		for {
			for i := 0; i < 100; i++ {
				select {
				case c := <-pool.buffers:
					if time.Since(c.created) < time.Duration(ttl)*time.Second {
						select {
						case pool.buffers <- c:
						default:
							c.b = nil
							c.gc = true
						}
					} else {
						c.b = nil
						c.gc = true
					}
				default:
				}
			}
			time.Sleep(1000 * time.Millisecond)
		}
	}()

	return pool
}

// Get borrows a buffer from the pool.
func (p *bufPool) Get() *buf {
	var c *buf
	select {
	case c = <-p.buffers:
	default:
		c = new(buf)
		c.b = make([]byte, 1024)
		c.created = time.Now()
	}
	return c
}

// Put returns a buffer to the pool.
func (p *bufPool) Put(c *buf) {
	select {
	case p.buffers <- c:
	default:
		c.gc = true
		c.b = nil
		// if pool overloaded, let it go
	}
}

type Packet struct {
	Seq     uint32
	Payload []byte
}

var packetPool = make(chan *Packet, 10000)

func putPacket(p *Packet) {
	select {
	case packetPool <- p:
	default:
	}
}

func copySlice(to []byte, from ...[]byte) ([]byte, int) {
	var totalLen int
	for _, s := range from {
		totalLen += len(s)
	}

	if cap(to) < totalLen {
		diff := (cap(to) - len(to)) + totalLen
		to = append(to, make([]byte, diff)...)
	}

	var i int
	for _, s := range from {
		i += copy(to[i:], s)
	}

	return to, i
}

// Message is the representation of a tcp message
type Message struct {
	IsRequest bool
	packets   []*Packet
	dataBuf   *buf
}

func (m *Message) PacketData() [][]byte {
	tmp := make([][]byte, len(m.packets))
	for i, p := range m.packets {
		tmp[i] = p.Payload
	}
	return tmp
}

// Data returns data in this message
func (m *Message) Data() []byte {
	m.dataBuf = bufferPool.Get()

	var n int
	if m.dataBuf == nil {
		panic("asdsd")
	}
	m.dataBuf.b, n = copySlice(m.dataBuf.b, m.PacketData()...)

	return m.dataBuf.b[:n]
}

func (m *Message) Finalize() {
	// Allow re-use memory
	for _, p := range m.packets {
		putPacket(p)
	}

	if m.dataBuf != nil {
		bufferPool.Put(m.dataBuf)
	}
}

// ---- input_raw.go ----

type OutMessage struct {
	Meta []byte
	Data []byte
}

type RAWInput struct {
	quit     chan bool
	messages chan *Message
}

// PluginRead reads meassage from this plugin
func (i *RAWInput) PluginRead() (*OutMessage, error) {
	var msgTCP *Message
	var msg OutMessage
	select {
	case <-i.quit:
		return nil, nil
	case msgTCP = <-i.messages:
		msg.Data = msgTCP.Data()
	}

	if msgTCP.IsRequest {
		msg.Meta = []byte("1")
	} else {
		msg.Meta = []byte("2")
	}

	msgTCP.Finalize()
	msgTCP = nil
	return &msg, nil // want `useafterput`
}
