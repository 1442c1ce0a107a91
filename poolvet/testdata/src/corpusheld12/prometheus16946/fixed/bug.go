// Package fixed is prometheus/prometheus#16946 after the fix: label names
// and values taken from the scrape buffer are copied when the labels are
// built, so the scrape cache no longer points into the pooled buffer.
package fixed

import (
	"io"
	"sync"
)

const maxPooledBuffer = 1 << 20

type Label struct {
	Name, Value string
}

type Labels []Label

// protobufParser walks a body made of entries: name length, name, value
// length, value. One entry is one series with one label.
type protobufParser struct {
	in   []byte
	name []byte
	val  []byte
}

func (p *protobufParser) Next() bool {
	if len(p.in) < 2 {
		return false
	}
	nl := int(p.in[0])
	if len(p.in) < 2+nl {
		return false
	}
	vl := int(p.in[1+nl])
	if len(p.in) < 2+nl+vl {
		return false
	}
	p.name = p.in[1 : 1+nl]
	p.val = p.in[2+nl : 2+nl+vl]
	p.in = p.in[2+nl+vl:]
	return true
}

func (p *protobufParser) Labels() Labels {
	return Labels{{Name: string(p.name), Value: string(p.val)}}
}

type scrapeCache struct {
	series map[string]Labels
}

type scrapeLoop struct {
	buffers sync.Pool
	cache   scrapeCache
}

func newScrapeLoop() *scrapeLoop {
	sl := &scrapeLoop{cache: scrapeCache{series: map[string]Labels{}}}
	sl.buffers.New = func() any {
		b := make([]byte, 0, 4096)
		return &b
	}
	return sl
}

func (sl *scrapeLoop) append(b []byte) int {
	p := &protobufParser{in: b}
	added := 0
	for p.Next() {
		lset := p.Labels()
		key := lset[0].Name + "=" + lset[0].Value
		if _, ok := sl.cache.series[key]; !ok {
			sl.cache.series[key] = lset
			added++
		}
	}
	return added
}

func readAll(dst []byte, r io.Reader) ([]byte, error) {
	var chunk [512]byte
	for {
		n, err := r.Read(chunk[:])
		dst = append(dst, chunk[:n]...)
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}

func (sl *scrapeLoop) scrapeAndReport(body io.Reader) (int, error) {
	bp := sl.buffers.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= maxPooledBuffer {
			*bp = (*bp)[:0]
			sl.buffers.Put(bp)
		}
	}()
	var err error
	*bp, err = readAll((*bp)[:0], body)
	if err != nil {
		return 0, err
	}
	added := sl.append(*bp)
	return added, nil
}
