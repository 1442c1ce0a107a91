// Package fixed is grafana/pyroscope#5116 after the fix: each label value
// is cloned with strings.Clone before the dataset is closed, so the result
// no longer aliases the pooled index buffer.
package fixed

import (
	"strings"
	"sync"
	"unsafe"
)

const maxPooledBuffer = 1 << 20

var bufferPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 4096)
	return &b
}}

func yoloString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Dataset holds one block's index, read into a pooled buffer. The index is
// a sequence of entries: name length, name, value length, value.
type Dataset struct {
	buf *[]byte
}

func OpenDataset(raw []byte) *Dataset {
	b := bufferPool.Get().(*[]byte)
	*b = append((*b)[:0], raw...)
	return &Dataset{buf: b}
}

func (d *Dataset) Close() {
	if d.buf == nil {
		return
	}
	b := d.buf
	d.buf = nil
	if cap(*b) > maxPooledBuffer {
		return
	}
	*b = (*b)[:0]
	bufferPool.Put(b)
}

// LabelValues returns the values stored under name. The strings alias the
// dataset buffer and are only valid until Close.
func (d *Dataset) LabelValues(name string) []string {
	var out []string
	data := *d.buf
	for len(data) >= 2 {
		nl := int(data[0])
		if len(data) < 1+nl+1 {
			break
		}
		n := data[1 : 1+nl]
		vl := int(data[1+nl])
		rest := data[2+nl:]
		if len(rest) < vl {
			break
		}
		if string(n) == name {
			out = append(out, yoloString(rest[:vl]))
		}
		data = rest[vl:]
	}
	return out
}

func QueryLabelValues(raw []byte, name string) ([]string, error) {
	ds := OpenDataset(raw)
	defer ds.Close()
	values := ds.LabelValues(name)
	for i, v := range values {
		values[i] = strings.Clone(v)
	}
	return values, nil
}
