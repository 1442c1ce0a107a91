// Package bug reproduces the shape of seaweedfs/seaweedfs#10267
// (https://github.com/seaweedfs/seaweedfs/pull/10267, fix commit
// https://github.com/seaweedfs/seaweedfs/commit/75d56c52df36bd779df496ef07d01259296b5ff2):
// the log-buffer read loop hands each subscriber a pooled *bytes.Buffer copy of
// the window. At the top of every iteration it returns the previous copy with
// ReleaseMemory and then calls ReadFromBuffer to get the next one; a deferred
// closure also releases bytesBuf when the loop exits. If ReadFromBuffer panics
// (corrupted window, out-of-range slice) bytesBuf still points at the buffer that
// was just released, so the deferred cleanup puts the same buffer into the pool a
// second time and two later readers share one backing array. The fix nils
// bytesBuf right after the in-loop release.
//
// Check: doubleput (the deferred ReleaseMemory can put a buffer already released
// in the loop; reported at the deferred release).
package bug

import (
	"bytes"
	"errors"
	"sync"
)

var ResumeFromDiskError = errors.New("resumeFromDisk")

type LogEntry struct {
	TsNs int64
	Data []byte
}

type EachLogEntryFuncType func(logEntry *LogEntry) (isDone bool, err error)

type LogBuffer struct {
	sync.RWMutex
	buf      []byte
	pos      int
	lastTsNs int64
}

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

func (logBuffer *LogBuffer) ReleaseMemory(b *bytes.Buffer) {
	bufferPool.Put(b)
}

// ReadFromBuffer returns a pooled copy of the window after position ts. The
// slice expression panics if the window was corrupted underneath us.
func (logBuffer *LogBuffer) ReadFromBuffer(ts int64) (bufferCopy *bytes.Buffer, batchIndex int64, err error) {
	logBuffer.RLock()
	defer logBuffer.RUnlock()
	if logBuffer.pos == 0 {
		if ts < logBuffer.lastTsNs {
			return nil, -2, ResumeFromDiskError
		}
		return nil, logBuffer.lastTsNs, nil
	}
	start := int(ts % int64(logBuffer.pos+1))
	return copiedBytes(logBuffer.buf[start:logBuffer.pos]), logBuffer.lastTsNs, nil
}

func (logBuffer *LogBuffer) LoopProcessLogData(readerName string, startTs int64, waitForDataFn func() bool, eachLogDataFn EachLogEntryFuncType) (lastReadTs int64, isDone bool, err error) {
	var bytesBuf *bytes.Buffer
	var batchIndex int64
	lastReadTs = startTs
	defer func() {
		if bytesBuf != nil {
			logBuffer.ReleaseMemory(bytesBuf) // want `doubleput`
		}
	}()

	for {
		if bytesBuf != nil {
			logBuffer.ReleaseMemory(bytesBuf)
		}
		bytesBuf, batchIndex, err = logBuffer.ReadFromBuffer(lastReadTs)
		if err == ResumeFromDiskError {
			if !waitForDataFn() {
				return lastReadTs, true, nil
			}
			continue
		}
		if err != nil {
			return lastReadTs, true, err
		}
		if bytesBuf == nil {
			if batchIndex >= 0 {
				lastReadTs = batchIndex
			}
			if !waitForDataFn() {
				isDone = true
				return
			}
			continue
		}

		buf := bytesBuf.Bytes()
		for pos := 0; pos+4 < len(buf); {
			size := int(buf[pos])<<24 | int(buf[pos+1])<<16 | int(buf[pos+2])<<8 | int(buf[pos+3])
			if pos+4+size > len(buf) {
				return lastReadTs, true, errors.New("resume")
			}
			entry := &LogEntry{TsNs: batchIndex, Data: buf[pos+4 : pos+4+size]}
			lastReadTs = entry.TsNs
			if isDone, err = eachLogDataFn(entry); err != nil || isDone {
				return
			}
			pos += 4 + size
		}
	}
}
