// Package fixed is the fix of youzan/nsq commit 2d099a3a
// (https://github.com/youzan/nsq/commit/2d099a3a173b7953f0575c847440ca055a429176):
// the traced reply is always built in a freshly allocated slice, so nothing
// returned refers to the pooled body buffer.
package fixed

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

func getTracedReponse(id uint64, traceID uint64, offset int64, rawSize int32) ([]byte, error) {
	retLen := 2 + 16 + 8 + 4
	buf := make([]byte, retLen)
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
	return getTracedReponse(id, traceID, offset, rawSize)
}
