// Package bug reproduces the shape of thanos-io/thanos#8705 (https://github.com/thanos-io/thanos/pull/8705,
// commit https://github.com/thanos-io/thanos/commit/81b8ddee959220965743f66490450d86bcdca5d9 "receive: Detach
// exemplar labels from pooled buffer"): the receive handler decodes the remote-write body into a buffer
// from decompressedBufPool (returned by a deferred func) and unmarshals it with zero-copy labels whose
// strings point into that buffer. Series labels were re-allocated before the request was handed to the
// writer, but exemplar labels were not, so the writer stored exemplar label strings that still aliased
// the pooled buffer after the deferred Put; the next request overwrote them. The fix re-allocates the
// exemplar labels too.
// Check: useafterput (label strings pointing into the pooled decode buffer are handed to the writer,
// which keeps them past the deferred Put; report at the handleRequest call).
package bug

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"unsafe"
)

const maxPooledDecompressedCap = 4 << 20

var decompressedBufPool = sync.Pool{New: func() interface{} { b := make([]byte, 0, 4096); return &b }}

// ZLabel is a label whose strings may point into the buffer it was decoded from.
type ZLabel struct {
	Name  string
	Value string
}

type Exemplar struct {
	Labels []ZLabel
	Value  float64
}

type TimeSeries struct {
	Labels    []ZLabel
	Exemplars []Exemplar
}

type WriteRequest struct {
	Timeseries []TimeSeries
}

func yoloString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func parseLabels(s []byte) []ZLabel {
	var out []ZLabel
	for _, kv := range bytes.Split(s, []byte(",")) {
		i := bytes.IndexByte(kv, '=')
		if i < 0 {
			continue
		}
		out = append(out, ZLabel{Name: yoloString(kv[:i]), Value: yoloString(kv[i+1:])})
	}
	return out
}

// unmarshal decodes "series|exemplar" lines without copying label strings.
func unmarshal(buf []byte, wreq *WriteRequest) error {
	for _, line := range bytes.Split(buf, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		parts := bytes.SplitN(line, []byte("|"), 2)
		ts := TimeSeries{Labels: parseLabels(parts[0])}
		if len(parts) == 2 {
			ts.Exemplars = append(ts.Exemplars, Exemplar{Labels: parseLabels(parts[1])})
		}
		wreq.Timeseries = append(wreq.Timeseries, ts)
	}
	if len(wreq.Timeseries) == 0 {
		return errors.New("empty write request")
	}
	return nil
}

// ReAllocZLabelsStrings detaches label strings from the buffer they were decoded from.
func ReAllocZLabelsStrings(lset *[]ZLabel) {
	for j, l := range *lset {
		(*lset)[j].Name = strings.Clone(l.Name)
		(*lset)[j].Value = strings.Clone(l.Value)
	}
}

// writer keeps what it is given, like the TSDB appender.
type writer struct {
	mu        sync.Mutex
	series    [][]ZLabel
	exemplars [][]ZLabel
}

func (w *writer) Write(wreq *WriteRequest) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, ts := range wreq.Timeseries {
		w.series = append(w.series, ts.Labels)
		for _, ex := range ts.Exemplars {
			w.exemplars = append(w.exemplars, ex.Labels)
		}
	}
	return nil
}

type Handler struct {
	writer *writer
}

func (h *Handler) handleRequest(wreq *WriteRequest) error {
	return h.writer.Write(wreq)
}

func (h *Handler) receiveHTTP(w http.ResponseWriter, r *http.Request) {
	// Decode into a pooled buffer to avoid allocs. (cap-guarded on return)
	reqBuf := decompressedBufPool.Get().(*[]byte)
	defer func() {
		if cap(*reqBuf) <= maxPooledDecompressedCap {
			*reqBuf = (*reqBuf)[:0]
			decompressedBufPool.Put(reqBuf)
		}
	}()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	*reqBuf = append((*reqBuf)[:0], body...)

	// NOTE: Due to zero copy ZLabels, labels used from WriteRequests keep memory
	// from the whole request. Ensure that we always copy those when we want to
	// store them for longer time.
	wreq := &WriteRequest{}
	if err := unmarshal(*reqBuf, wreq); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}

	// Deep copy all label strings to detach them from pooled decode buffer.
	for i := range wreq.Timeseries {
		ReAllocZLabelsStrings(&wreq.Timeseries[i].Labels)
	}

	if err := h.handleRequest(wreq); err != nil { // want `useafterput`
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}
