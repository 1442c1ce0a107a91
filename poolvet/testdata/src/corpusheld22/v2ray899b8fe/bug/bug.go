// Package bug reproduces the shape of v2fly/v2ray-core commit 899b8fefc ("fix buffer reuse
// bug", https://github.com/v2fly/v2ray-core/commit/899b8fefcab613d45cdc021910582ef972a59b28):
// packetaddr.AttachAddressToPacket takes a 2 KiB buf.Buffer from the buffer pool with
// buf.StackNew(), writes the UDP address/port header into it, and then does
// data = append(packetBuf.Bytes(), data...). For ordinary packets the append fits in the
// pooled array, so data now lives in the pool's memory; packetBuf.Release() recycles that
// array and the function returns data anyway, so the wrapped packet handed to the link is
// overwritten by the next user of the pool. The fix stops releasing the buffer there.
// Check: useafterput (data, appended into the pooled array, returned after
// packetBuf.Release()).
package bug

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	gonet "net"
	"sync"
)

// ---- common/buf ----

// Size of a regular buffer.
const Size = 2048

var pool = sync.Pool{New: func() interface{} { b := make([]byte, Size); return &b }}

// Buffer is a recyclable allocation of a byte array.
type Buffer struct {
	v     []byte
	start int32
	end   int32
}

// StackNew creates a new Buffer object on stack, for buffers released in the same function.
func StackNew() Buffer {
	return Buffer{v: *pool.Get().(*[]byte)}
}

// Release recycles the buffer into the buffer pool.
func (b *Buffer) Release() {
	if b == nil || b.v == nil {
		return
	}
	p := b.v
	b.v = nil
	b.start, b.end = 0, 0
	pool.Put(&p)
}

func (b *Buffer) Bytes() []byte { return b.v[b.start:b.end] }

func (b *Buffer) Len() int32 { return b.end - b.start }

func (b *Buffer) Write(data []byte) (int, error) {
	n := copy(b.v[b.end:], data)
	b.end += int32(n)
	return n, nil
}

// ---- common/net/packetaddr ----

func writeAddressPort(w io.Writer, ip gonet.IP, port uint16) error {
	family := byte(0x01)
	if ip4 := ip.To4(); ip4 != nil {
		ip = ip4
	} else {
		family = 0x02
	}
	var pb [2]byte
	binary.BigEndian.PutUint16(pb[:], port)
	if _, err := w.Write([]byte{family}); err != nil {
		return err
	}
	if _, err := w.Write(ip); err != nil {
		return err
	}
	_, err := w.Write(pb[:])
	return err
}

func readAddressPort(w *Buffer, r io.Reader) (gonet.IP, uint16, error) {
	var family [1]byte
	if _, err := io.ReadFull(r, family[:]); err != nil {
		return nil, 0, err
	}
	w.Write(family[:])
	n := 4
	if family[0] == 0x02 {
		n = 16
	} else if family[0] != 0x01 {
		return nil, 0, errors.New("unknown address family")
	}
	ip := make([]byte, n)
	if _, err := io.ReadFull(r, ip); err != nil {
		return nil, 0, err
	}
	w.Write(ip)
	var pb [2]byte
	if _, err := io.ReadFull(r, pb[:]); err != nil {
		return nil, 0, err
	}
	w.Write(pb[:])
	return ip, binary.BigEndian.Uint16(pb[:]), nil
}

func AttachAddressToPacket(data []byte, address gonet.Addr) []byte {
	packetBuf := StackNew()
	udpaddr := address.(*gonet.UDPAddr)
	if err := writeAddressPort(&packetBuf, udpaddr.IP, uint16(udpaddr.Port)); err != nil {
		panic(err)
	}
	data = append(packetBuf.Bytes(), data...)
	packetBuf.Release()
	return data // want `useafterput`
}

func ExtractAddressFromPacket(data []byte) ([]byte, gonet.Addr) {
	packetBuf := StackNew()
	ip, port, err := readAddressPort(&packetBuf, bytes.NewReader(data))
	if err != nil {
		panic(err)
	}
	addr := &gonet.UDPAddr{IP: ip, Port: int(port)}
	payload := data[int(packetBuf.Len()):]
	packetBuf.Release()
	return payload, addr
}

type packetConnectionAdaptor struct {
	w io.Writer
}

func (c *packetConnectionAdaptor) WriteTo(p []byte, addr gonet.Addr) (n int, err error) {
	payloadLen := len(p)
	p = AttachAddressToPacket(p, addr)
	if _, err := c.w.Write(p); err != nil {
		return 0, err
	}
	return payloadLen, nil
}
