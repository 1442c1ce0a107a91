// Package fixed is the fixed twin of corpusheld13/victoriametrics11238:
// the handler copies the metadata into the request it queues, so the
// parser's pooled context can be reset and put back.
package fixed

import "sync"

type Metadata struct {
	MetricFamilyName string
	Help             string
	Type             int
}

type writeRequestContext struct {
	metadata []Metadata
}

const maxPooledMetadata = 1024

var wrcPool sync.Pool

func getWriteRequestContext() *writeRequestContext {
	v := wrcPool.Get()
	if v == nil {
		return &writeRequestContext{}
	}
	return v.(*writeRequestContext)
}

func putWriteRequestContext(wrc *writeRequestContext) {
	if cap(wrc.metadata) > maxPooledMetadata {
		return
	}
	clear(wrc.metadata)
	wrc.metadata = wrc.metadata[:0]
	wrcPool.Put(wrc)
}

// parse fills the context from a decoded request.
func (wrc *writeRequestContext) parse(names []string) {
	for _, n := range names {
		wrc.metadata = append(wrc.metadata, Metadata{MetricFamilyName: n, Type: 1})
	}
}

type WriteRequest struct {
	Metadata []Metadata
}

// pushQueue is read by the remote-write workers.
var pushQueue = make(chan *WriteRequest, 128)

// insertRows is the request handler's callback: it queues a copy of the
// metadata for remote write.
func insertRows(md []Metadata) error {
	wr := &WriteRequest{}
	wr.Metadata = append(wr.Metadata[:0], md...)
	pushQueue <- wr
	return nil
}

func ParseStream(names []string) error {
	wrc := getWriteRequestContext()
	wrc.parse(names)
	err := insertRows(wrc.metadata)
	putWriteRequestContext(wrc)
	return err
}
