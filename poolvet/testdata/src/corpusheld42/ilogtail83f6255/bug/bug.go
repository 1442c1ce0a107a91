// Package bug reproduces the shape of alibaba/ilogtail commit 83f6255
// (https://github.com/alibaba/ilogtail/commit/83f625582f7e9523fa3e88025db0fe0f6a9310c1):
// ConvertToRawStream joined the raw events of a group into a bytes.Buffer taken
// from a sync.Pool, deferred the buffer's reset and its return to the pool, and
// returned buf.Bytes() to the flusher. When the function returns, the deferred
// calls reset the buffer and give it back to the pool, so the slice the flusher
// sends aliases a buffer that the next conversion overwrites.
// Check: useafterput (the Bytes() view of the pooled buffer is returned while
// the deferred release puts the buffer back); report at the return.
package bug

import (
	"bytes"
	"errors"
	"sync"
)

const maxStreamCap = 1 << 20

var streamPool = sync.Pool{
	New: func() any {
		return &bytes.Buffer{}
	},
}

func releaseStream(b *bytes.Buffer) {
	if b.Cap() > maxStreamCap {
		return
	}
	b.Reset()
	streamPool.Put(b)
}

type Event interface{ Type() int }

type ByteArray []byte

func (ByteArray) Type() int { return 1 }

type GroupEvents struct {
	Tags   map[string]string
	Events []Event
}

type Converter struct{}

func (c *Converter) ConvertToRawStream(group *GroupEvents, fields []string) ([][]byte, []map[string]string, error) {
	if len(group.Events) == 0 {
		return nil, nil, nil
	}
	byteStream := streamPool.Get().(*bytes.Buffer)
	defer releaseStream(byteStream)
	for i, ev := range group.Events {
		raw, ok := ev.(ByteArray)
		if !ok {
			return nil, nil, errors.New("unsupported event type")
		}
		if i != 0 {
			byteStream.WriteByte('\n')
		}
		byteStream.Write(raw)
	}
	var values map[string]string
	if len(fields) > 0 {
		values = pickFields(fields, group.Tags)
	}
	return [][]byte{byteStream.Bytes()}, []map[string]string{values}, nil // want `useafterput`
}

func pickFields(fields []string, tags map[string]string) map[string]string {
	out := make(map[string]string, len(fields))
	for _, f := range fields {
		if v, ok := tags[f]; ok {
			out[f] = v
		}
	}
	return out
}
