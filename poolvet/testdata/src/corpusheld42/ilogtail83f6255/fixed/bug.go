// Package bug reproduces the shape of alibaba/ilogtail commit 83f6255
// (https://github.com/alibaba/ilogtail/commit/83f625582f7e9523fa3e88025db0fe0f6a9310c1):
// fixed twin. The converter builds the stream in a pooled byte slice that it
// hands to the caller without releasing it; the flusher gives the slice back to
// the pool only after the request has been sent.
// Check: useafterput (none here).
package bug

import (
	"errors"
	"io"
	"sync"
)

const maxStreamCap = 1 << 20

var bufPool = sync.Pool{
	New: func() any {
		b := make([]byte, 0, 1024)
		return &b
	},
}

func GetPooledByteBuf() *[]byte {
	return bufPool.Get().(*[]byte)
}

func PutPooledByteBuf(b *[]byte) {
	if cap(*b) > maxStreamCap {
		return
	}
	*b = (*b)[:0]
	bufPool.Put(b)
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
	byteStream := *GetPooledByteBuf()
	byteStream = byteStream[:0]
	for i, ev := range group.Events {
		raw, ok := ev.(ByteArray)
		if !ok {
			return nil, nil, errors.New("unsupported event type")
		}
		if i != 0 {
			byteStream = append(byteStream, '\n')
		}
		byteStream = append(byteStream, raw...)
	}
	var values map[string]string
	if len(fields) > 0 {
		values = pickFields(fields, group.Tags)
	}
	return [][]byte{byteStream}, []map[string]string{values}, nil
}

type Flusher struct {
	conv Converter
	out  io.Writer
}

func (f *Flusher) Flush(group *GroupEvents) error {
	stream, _, err := f.conv.ConvertToRawStream(group, nil)
	if err != nil {
		return err
	}
	for _, data := range stream {
		if _, err := f.out.Write(data); err != nil {
			return err
		}
		d := data
		PutPooledByteBuf(&d)
	}
	return nil
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
