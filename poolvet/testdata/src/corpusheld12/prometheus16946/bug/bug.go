// Package bug reproduces the shape of prometheus/prometheus#16946
// (https://github.com/prometheus/prometheus/pull/16946): the scrape loop read
// each scrape body into a buffer from its buffer pool and gave the buffer
// back when the scrape was done, but the protobuf parser built label names
// and values as unsafe strings over that buffer and the scrape cache kept
// those labels across scrapes. The next scrape refilled the buffer and the
// cached labels changed under it ("\finstance_35"="\tvalue_85").
//
// Check: useafterput (retention: a method of the receiver stores unsafe
// strings over the pooled buffer into the receiver's cache, and the buffer
// goes back to the pool by a deferred Put. The want is on the call that lets
// the receiver keep the buffer's memory, where docs/poolvet.md puts a report
// for a deferred Put after such a store; the project pooled []byte, here it is
// *[]byte with a size guard so that only useafterput applies.)
package bug

import (
	"io"
	"sync"
	"unsafe"
)

const maxPooledBuffer = 1 << 20

type Label struct {
	Name, Value string
}

type Labels []Label

func yoloString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

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
	return Labels{{Name: yoloString(p.name), Value: yoloString(p.val)}}
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
	added := sl.append(*bp) // want `useafterput`
	return added, nil
}
