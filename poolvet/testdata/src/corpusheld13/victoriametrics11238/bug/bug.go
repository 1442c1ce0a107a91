// Package bug reproduces the shape of VictoriaMetrics/VictoriaMetrics#11238
// (https://github.com/VictoriaMetrics/VictoriaMetrics/pull/11238): vmagent's
// OpenTelemetry handler stored the metadata slice it got from the stream
// parser directly in the queued write request. That slice is the backing
// array of the parser's pooled request context, which is reset and put
// back once the handler returns, while the remote-write path may still read
// the queued request.
//
// Check: useafterput (retention/hand-off: a slice field of the pooled parser
// context is stored by a callee in a request that is queued on a channel;
// the context is put back right after the callee returns, so the report is
// at that Put).
package bug

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

// insertRows is the request handler's callback: it queues the metadata for
// remote write.
func insertRows(md []Metadata) error {
	wr := &WriteRequest{}
	wr.Metadata = md
	pushQueue <- wr
	return nil
}

func ParseStream(names []string) error {
	wrc := getWriteRequestContext()
	wrc.parse(names)
	err := insertRows(wrc.metadata)
	putWriteRequestContext(wrc) // want `useafterput`
	return err
}
