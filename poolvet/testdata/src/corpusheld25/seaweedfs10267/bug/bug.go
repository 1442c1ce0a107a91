// Package bug reproduces the shape of seaweedfs/seaweedfs#10267
// (https://github.com/seaweedfs/seaweedfs/pull/10267, commit 75d56c52df36,
// "log_buffer: clear released read buffer so a panic cannot double-free it"):
// LoopProcessLogData keeps the pooled *bytes.Buffer of the previous read in
// bytesBuf, releases it at the top of each iteration and also releases it in a
// deferred cleanup. The variable is only reassigned by the next
// ReadFromBuffer call, so if that call panics (or anything between the release
// and the reassignment exits the function) the deferred cleanup puts the same
// buffer into the pool a second time and two later readers share one backing
// array. The fix nils bytesBuf right after the in-loop release.
//
// Check: doubleput (at the deferred ReleaseMemory, for the buffer already
// released at the top of the loop).
package bug

import (
	"bytes"
	"errors"
	"sync"
	"time"
)

var ResumeFromDiskError = errors.New("resume from disk")

const maxPooledBufferSize = 4 << 20

var bufferPool = sync.Pool{
	New: func() interface{} {
		return new(bytes.Buffer)
	},
}

func copiedBytes(buf []byte) (copied *bytes.Buffer) {
	copied = bufferPool.Get().(*bytes.Buffer)
	copied.Reset()
	copied.Write(buf)
	return
}

type MessagePosition struct {
	TsNs int64
}

type LogBuffer struct {
	sync.RWMutex
	buf            []byte
	pos            int
	stopTs         int64
	notify         chan struct{}
	ReadFromDiskFn func(pos MessagePosition, stopTsNs int64) (MessagePosition, bool, error)
}

// ReleaseMemory returns a pooled buffer for reuse.
func (logBuffer *LogBuffer) ReleaseMemory(b *bytes.Buffer) {
	if b.Cap() > maxPooledBufferSize {
		return
	}
	bufferPool.Put(b)
}

// ReadFromBuffer copies the unread part of the in-memory window into a pooled
// buffer. It may panic on a corrupt window.
func (logBuffer *LogBuffer) ReadFromBuffer(lastReadPosition MessagePosition) (bufferCopy *bytes.Buffer, batchIndex int64, isPooled bool, err error) {
	logBuffer.RLock()
	defer logBuffer.RUnlock()
	if lastReadPosition.TsNs < logBuffer.stopTs {
		return nil, -2, false, ResumeFromDiskError
	}
	if logBuffer.pos == 0 {
		return nil, -1, false, nil
	}
	return copiedBytes(logBuffer.buf[:logBuffer.pos]), int64(logBuffer.pos), true, nil
}

type EachLogEntryFuncType func(data []byte) (isDone bool, err error)

func (logBuffer *LogBuffer) LoopProcessLogData(readerName string, startPosition MessagePosition, stopTsNs int64,
	waitForDataFn func() bool, eachLogDataFn EachLogEntryFuncType) (lastReadPosition MessagePosition, isDone bool, err error) {

	var bytesBuf *bytes.Buffer
	var bytesBufPooled bool
	var batchIndex int64
	lastReadPosition = startPosition
	defer func() {
		if bytesBuf != nil && bytesBufPooled {
			logBuffer.ReleaseMemory(bytesBuf) // want `doubleput`
		}
	}()

	for {

		if bytesBuf != nil && bytesBufPooled {
			logBuffer.ReleaseMemory(bytesBuf)
		}
		bytesBuf, batchIndex, bytesBufPooled, err = logBuffer.ReadFromBuffer(lastReadPosition)
		if err == ResumeFromDiskError {
			if logBuffer.ReadFromDiskFn == nil {
				return lastReadPosition, isDone, ResumeFromDiskError
			}
			lastReadPosition, isDone, err = logBuffer.ReadFromDiskFn(lastReadPosition, stopTsNs)
			if err != nil || isDone {
				return lastReadPosition, isDone, err
			}
			continue
		}

		if bytesBuf == nil {
			if !waitForDataFn() {
				return lastReadPosition, true, nil
			}
			select {
			case <-logBuffer.notify:
			case <-time.After(250 * time.Millisecond):
			}
			continue
		}

		isDone, err = eachLogDataFn(bytesBuf.Bytes())
		if err != nil || isDone {
			return lastReadPosition, isDone, err
		}
		lastReadPosition = MessagePosition{TsNs: batchIndex}
	}
}
