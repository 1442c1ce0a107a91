// Package bug reproduces the shape of minio/minio#16174
// (https://github.com/minio/minio/pull/16174, also opened as
// minio/minio#16173): in S3 Select, Evaluate's sendRecord closure takes a
// bytes.Buffer from bufPool, marshals the queued output records into it and
// hands it to the message writer with SendRecord. SendRecord passes the
// buffer over a channel to the writer goroutine, which copies it out and
// puts it back into bufPool itself. The pull request added a (deferred) Put
// in sendRecord so the buffer "goes back to the pool" on the success path as
// well; the buffer is then returned twice, once by the sender and once by the
// writer goroutine that now owns it. The pull request was closed unmerged
// after review; the code keeps putting the buffer back in sendRecord only on
// the paths where it was not handed off.
// Check: doubleput (the deferred Put in sendRecord, which also runs after
// SendRecord gave the buffer to the writer goroutine).
package bug

import (
	"bytes"
	"errors"
	"io"
	"sync"
)

const (
	maxRecordSize = 1 << 20
	bufLength     = 128 << 10
	// buffers that grew past this are left to the GC
	maxPooledBufferSize = 4 * maxRecordSize
)

var bufPool = sync.Pool{
	New: func() interface{} {
		return bytes.NewBuffer(make([]byte, 0, maxRecordSize))
	},
}

func putBuf(b *bytes.Buffer) {
	if b.Cap() > maxPooledBufferSize {
		return
	}
	bufPool.Put(b)
}

type messageWriter struct {
	writer             io.Writer
	payloadBuffer      []byte
	payloadBufferIndex int
	payloadCh          chan *bytes.Buffer
	doneCh             chan struct{}
}

func newMessageWriter(w io.Writer) *messageWriter {
	writer := &messageWriter{
		writer:        w,
		payloadBuffer: make([]byte, bufLength),
		payloadCh:     make(chan *bytes.Buffer, 1),
		doneCh:        make(chan struct{}),
	}
	go writer.start()
	return writer
}

func (writer *messageWriter) flushRecords() bool {
	if writer.payloadBufferIndex == 0 {
		return true
	}
	_, err := writer.writer.Write(writer.payloadBuffer[:writer.payloadBufferIndex])
	writer.payloadBufferIndex = 0
	return err == nil
}

func (writer *messageWriter) start() {
	defer close(writer.doneCh)
	for payload := range writer.payloadCh {
		for payload.Len() > 0 {
			copiedLen := copy(writer.payloadBuffer[writer.payloadBufferIndex:], payload.Bytes())
			writer.payloadBufferIndex += copiedLen
			payload.Next(copiedLen)
			if bufLength-writer.payloadBufferIndex == 0 {
				if !writer.flushRecords() {
					break
				}
			}
		}
		putBuf(payload)
	}
	writer.flushRecords()
}

// SendRecord hands a whole record payload over to the writer goroutine.
func (writer *messageWriter) SendRecord(payload *bytes.Buffer) error {
	select {
	case writer.payloadCh <- payload:
		return nil
	case <-writer.doneCh:
		return errors.New("messageWriter is done")
	}
}

func (writer *messageWriter) Finish() error {
	close(writer.payloadCh)
	<-writer.doneCh
	return nil
}

type Record interface {
	WriteCSV(w io.Writer) error
}

type S3Select struct {
	records []Record
}

func (s3Select *S3Select) marshal(buf *bytes.Buffer, r Record) error {
	if err := r.WriteCSV(buf); err != nil {
		return err
	}
	return buf.WriteByte('\n')
}

// Evaluate sends the selected records to w.
func (s3Select *S3Select) Evaluate(w io.Writer) error {
	writer := newMessageWriter(w)

	outputQueue := make([]Record, 0, 100)
	var err error
	sendRecord := func() bool {
		buf := bufPool.Get().(*bytes.Buffer)
		buf.Reset()
		defer putBuf(buf) // want `doubleput`
		for _, outputRecord := range outputQueue {
			if outputRecord == nil {
				continue
			}
			before := buf.Len()
			if err = s3Select.marshal(buf, outputRecord); err != nil {
				return false
			}
			if buf.Len()-before > maxRecordSize {
				err = errors.New("OverMaxRecordSize")
				return false
			}
		}

		if err = writer.SendRecord(buf); err != nil {
			err = nil
			return false
		}
		outputQueue = outputQueue[:0]
		return true
	}

	for _, rec := range s3Select.records {
		outputQueue = append(outputQueue, rec)
		if len(outputQueue) < cap(outputQueue) {
			continue
		}
		if !sendRecord() {
			break
		}
	}
	if err == nil && len(outputQueue) > 0 {
		sendRecord()
	}
	if ferr := writer.Finish(); err == nil {
		err = ferr
	}
	return err
}
