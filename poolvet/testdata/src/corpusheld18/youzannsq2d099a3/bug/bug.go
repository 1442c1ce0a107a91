// Package bug reproduces the shape of youzan/nsq commit 2d099a3a
// (https://github.com/youzan/nsq/commit/2d099a3a173b7953f0575c847440ca055a429176,
// "should not use the pool buffer after return, maybe reused by next
// request"; also part of https://github.com/nsqio/nsq/pull/928). For a
// traced PUB, getTracedReponse built the reply inside the pooled message
// body buffer (a sub-slice of its Bytes) when the body was long enough, and
// internalPubAndTrace returned that reply past its deferred BufferPoolPut:
// the connection wrote a reply whose bytes the next request was refilling.
//
// Check: useafterput (a helper returns a sub-slice of its argument on one
// path; the result is returned past a deferred put done through a wrapper
// method; report at that `return`).
package bug

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

const maxPooledBody = 1 << 20

var okBytes = []byte("OK")

type Topic struct {
	bp sync.Pool
}

func NewTopic() *Topic {
	t := &Topic{}
	t.bp.New = func() any { return new(bytes.Buffer) }
	return t
}

func (t *Topic) BufferPoolGet(capacity int) *bytes.Buffer {
	b := t.bp.Get().(*bytes.Buffer)
	b.Reset()
	b.Grow(capacity)
	return b
}

func (t *Topic) BufferPoolPut(b *bytes.Buffer) {
	if b.Cap() > maxPooledBody {
		return
	}
	b.Reset()
	t.bp.Put(b)
}

// PutMessage stores the message (it copies the body) and returns its id,
// offset and raw size.
var PutMessage func(t *Topic, body []byte, traceID uint64) (id uint64, offset int64, rawSize int32, err error)

const msgTraceIDLength = 8

func getTracedReponse(messageBodyBuffer *bytes.Buffer, id uint64, traceID uint64, offset int64, rawSize int32) ([]byte, error) {
	var buf []byte
	retLen := 2 + 16 + 8 + 4
	if len(messageBodyBuffer.Bytes()) >= retLen {
		buf = messageBodyBuffer.Bytes()[:retLen]
	} else {
		buf = make([]byte, retLen)
	}
	copy(buf[:2], okBytes)
	pos := 2
	binary.BigEndian.PutUint64(buf[pos:pos+8], id)
	pos += 8
	binary.BigEndian.PutUint64(buf[pos:pos+msgTraceIDLength], traceID)
	pos += msgTraceIDLength
	binary.BigEndian.PutUint64(buf[pos:pos+8], uint64(offset))
	pos += 8
	binary.BigEndian.PutUint32(buf[pos:pos+4], uint32(rawSize))
	return buf, nil
}

func internalPubAndTrace(topic *Topic, r io.Reader, bodyLen int32, traceEnable bool) ([]byte, error) {
	if traceEnable && bodyLen <= msgTraceIDLength {
		return nil, errors.New("E_BAD_BODY")
	}
	messageBodyBuffer := topic.BufferPoolGet(int(bodyLen))
	defer topic.BufferPoolPut(messageBodyBuffer)

	if _, err := io.CopyN(messageBodyBuffer, r, int64(bodyLen)); err != nil {
		return nil, errors.New("E_BAD_MESSAGE: failed to read message body")
	}
	messageBody := messageBodyBuffer.Bytes()[:bodyLen]

	var traceID uint64
	var realBody []byte
	if traceEnable {
		traceID = binary.BigEndian.Uint64(messageBody[:msgTraceIDLength])
		realBody = messageBody[msgTraceIDLength:]
	} else {
		realBody = messageBody
	}
	id, offset, rawSize, err := PutMessage(topic, realBody, traceID)
	if err != nil {
		return nil, errors.New("E_PUB_FAILED: " + err.Error())
	}
	if !traceEnable {
		return okBytes, nil
	}
	return getTracedReponse(messageBodyBuffer, id, traceID, offset, rawSize) // want `useafterput`
}
