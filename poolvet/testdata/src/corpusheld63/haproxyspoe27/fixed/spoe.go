package fixed

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
)

const maxFrameSize = 16380

type frameType byte

const (
	frameTypeHaproxyHello frameType = 1
	frameTypeAgentHello   frameType = 101
)

const dataTypeString = 8

type Frame struct {
	ftype        frameType
	data         []byte
	originalData []byte
}

type codec struct {
	conn net.Conn
}

func (c *codec) decodeFrame(frame *Frame) (bool, error) {
	buffer := Get(maxFrameSize)
	frame.originalData = buffer

	if _, err := io.ReadFull(c.conn, buffer[:4]); err != nil {
		return false, nil
	}
	frameLength := int(buffer[0])<<24 | int(buffer[1])<<16 | int(buffer[2])<<8 | int(buffer[3])
	if frameLength > maxFrameSize || frameLength == 0 {
		return false, errors.New("frame length")
	}
	frame.data = buffer[:frameLength]
	if _, err := io.ReadFull(c.conn, frame.data); err != nil {
		return false, err
	}
	frame.ftype = frameType(frame.data[0])
	frame.data = frame.data[1:]
	return true, nil
}

func (c *codec) encodeFrame(f Frame) error {
	if f.originalData != nil {
		defer Put(f.originalData)
	}

	header := Get(5)
	defer Put(header)
	l := len(f.data) + 1
	header[0], header[1], header[2], header[3] = byte(l>>24), byte(l>>16), byte(l>>8), byte(l)
	header[4] = byte(f.ftype)
	if _, err := c.conn.Write(header); err != nil {
		return err
	}
	_, err := c.conn.Write(f.data)
	return err
}

func decodeBytes(b []byte) ([]byte, int, error) {
	if len(b) == 0 {
		return nil, 0, errors.New("decode bytes: unterminated sequence")
	}
	l, off := int(b[0]), 1
	if len(b) < l+off {
		return nil, 0, errors.New("decode bytes: unterminated sequence")
	}
	return b[off : off+l], off + l, nil
}

func decodeString(b []byte) (string, int, error) {
	b, n, err := decodeBytes(b)
	return string(b), n, err
}

func decodeKVs(b []byte) (map[string]interface{}, error) {
	res := map[string]interface{}{}
	off := 0
	for off < len(b) {
		name, n, err := decodeString(b[off:])
		if err != nil {
			return nil, err
		}
		off += n
		if off >= len(b) || b[off]&0x0F != dataTypeString {
			return nil, fmt.Errorf("decode k/v: unsupported type")
		}
		off++
		v, n, err := decodeString(b[off:])
		if err != nil {
			return nil, err
		}
		off += n
		res[name] = v
	}
	return res, nil
}

func encodeString(b []byte, v string) int {
	b[0] = byte(len(v))
	return 1 + copy(b[1:], v)
}

type EngKey struct {
	FrameSize int
	Engine    string
}

type Engine struct {
	count int32
}

type Agent struct {
	engLock sync.Mutex
	engines map[EngKey]*Engine
}

type conn struct {
	net.Conn
	frameSize int
	engineID  string
}

func (c *conn) handleHello(frame Frame) (Frame, error) {
	data, err := decodeKVs(frame.data)
	if err != nil {
		return frame, err
	}

	c.engineID, _ = data["engine-id"].(string)
	if len(c.engineID) == 0 {
		return frame, fmt.Errorf("hello: engine-id not found")
	}

	frame.ftype = frameTypeAgentHello
	frame.data = frame.originalData

	off := encodeString(frame.data, "version")
	frame.data[off] = dataTypeString
	off++
	off += encodeString(frame.data[off:], "2.0")
	frame.data = frame.data[:off]
	return frame, nil
}

func (c *conn) run(a *Agent) error {
	defer c.Close()

	cod := &codec{conn: c.Conn}

	myframe := Frame{}
	ok, err := cod.decodeFrame(&myframe)
	if err != nil || !ok {
		return err
	}
	if myframe.ftype != frameTypeHaproxyHello {
		return fmt.Errorf("unexpected frame type %x", myframe.ftype)
	}

	myframe, err = c.handleHello(myframe)
	if err != nil {
		return err
	}

	engKey := EngKey{
		FrameSize: c.frameSize,
		Engine:    c.engineID,
	}

	a.engLock.Lock()
	eng, ok := a.engines[engKey]
	if ok {
		eng.count++
	} else {
		a.engines[engKey] = &Engine{count: 1}
	}
	a.engLock.Unlock()
	defer func() {
		a.engLock.Lock()
		a.engines[engKey].count--
		if a.engines[engKey].count == 0 {
			delete(a.engines, engKey)
		}
		a.engLock.Unlock()
	}()

	err = cod.encodeFrame(myframe)
	if err != nil {
		return err
	}

	for {
		ok, err := cod.decodeFrame(&myframe)
		if err != nil || !ok {
			return err
		}
		if err := cod.encodeFrame(myframe); err != nil {
			return err
		}
	}
}
