// Package bug reproduces the shape of DataDog/dd-trace-go commit eceeb3a
// (https://github.com/DataDog/dd-trace-go/commit/eceeb3a96e89fb2349abae175382d6770ffe5ce6):
// v1 trace payloads come from a sync.Pool and are cleared by payloadV1.clear()
// when taken out of it. clear() reset the buffer, header, chunks and counters
// but forgot the attributes map, so a reused payload still carried the
// payload-level attributes (the process tags) of its previous flush; a flush
// with no or different process tags sent stale ones. The fix clears the map in
// clear().
// Check: noreset (the reset method that forgets the attributes map); report at
// clear().
package bug

import (
	"bytes"
	"io"
	"sync"
	"sync/atomic"
)

const keyProcessTags = "_dd.tags.process"

type anyValue struct {
	valueType int
	value     any
}

type traceChunk struct {
	priority int32
	spans    []string
}

// payloadV1 is the msgpack payload of the v1 trace protocol; it is pooled and
// reused for every flush.
type payloadV1 struct {
	bm         uint32
	fields     uint32
	count      uint32
	buf        []byte
	header     []byte
	attributes map[string]anyValue
	chunks     []traceChunk

	processTagsStr    string
	processTagsCached anyValue
}

func newPayloadV1() *payloadV1 {
	return &payloadV1{
		attributes: make(map[string]anyValue),
		chunks:     make([]traceChunk, 0),
		header:     make([]byte, 0, 8),
	}
}

var payloadV1Pool = sync.Pool{
	New: func() any {
		return newPayloadV1()
	},
}

func getPayloadV1() *payloadV1 {
	p := payloadV1Pool.Get().(*payloadV1)
	p.clear()
	return p
}

func putPayloadV1(p *payloadV1) {
	if cap(p.buf) > 4<<20 {
		return
	}
	payloadV1Pool.Put(p)
}

func (p *payloadV1) clear() { // want `noreset`
	p.bm = 0
	p.buf = p.buf[:0]
	p.header = p.header[:0]
	p.chunks = p.chunks[:0]
	atomic.StoreUint32(&p.fields, 0)
	atomic.StoreUint32(&p.count, 0)
}

// setProcessTags records the process tags as a payload attribute before the
// first chunk is pushed.
func (p *payloadV1) setProcessTags(tags string) {
	if atomic.LoadUint32(&p.count) != 0 {
		return
	}
	if tags == "" {
		return
	}
	if p.processTagsStr != tags {
		p.processTagsCached = anyValue{valueType: 1, value: tags}
		p.processTagsStr = tags
	}
	p.attributes[keyProcessTags] = p.processTagsCached
}

func (p *payloadV1) push(spans []string) {
	p.chunks = append(p.chunks, traceChunk{spans: spans})
	atomic.AddUint32(&p.count, 1)
	for _, s := range spans {
		p.buf = append(p.buf, s...)
	}
}

type writer struct {
	out       io.Writer
	tags      func() string
	traces    [][]string
	encodeErr error
}

func (w *writer) flush() {
	p := getPayloadV1()
	p.setProcessTags(w.tags())
	for _, t := range w.traces {
		p.push(t)
	}
	var b bytes.Buffer
	for k, v := range p.attributes {
		b.WriteString(k)
		if s, ok := v.value.(string); ok {
			b.WriteString(s)
		}
	}
	b.Write(p.buf)
	_, w.encodeErr = w.out.Write(b.Bytes())
	w.traces = w.traces[:0]
	putPayloadV1(p)
}
