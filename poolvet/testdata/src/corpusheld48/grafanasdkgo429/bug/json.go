// Source: https://github.com/grafana/grafana-plugin-sdk-go/pull/429
// (commit 15272e4f481e65d9107d50a24799528cc4f937d8; issue
// https://github.com/grafana/grafana-plugin-sdk-go/issues/424)
//
// Outside the brief's stream-processing domain (that domain ran dry for
// unused sources): Grafana's plugin SDK, which serialises data-source query
// results (data frames) to JSON on the plugin -> Grafana data path.
//
// backend.QueryDataResponse.MarshalJSON and backend.DataResponse.MarshalJSON
// borrow a *jsoniter.Stream from the config's stream pool (BorrowStream),
// return it with a deferred ReturnStream, and return stream.Buffer() -- the
// pooled stream's own byte slice. After the deferred ReturnStream the stream
// (and its buffer) can be handed to another goroutine's BorrowStream, which
// truncates and rewrites it while the caller still holds the returned
// []byte: data races and occasionally broken JSON in query responses. (The
// DataResponse version even carried the comment "Copy this with care, for
// concurency, you may need to copy the buffer".)
//
// Fixed by returning a copy in both methods:
// append([]byte(nil), stream.Buffer()...).
//
// The stream pool below re-creates json-iterator's frozenConfig.BorrowStream
// / ReturnStream (a sync.Pool of *Stream whose Reset truncates buf).
//
// Check: useafterput (both MarshalJSON methods return stream.Buffer(),
// memory owned by a pooled stream, past the deferred ReturnStream)
package bug

import (
	"io"
	"sort"
	"strconv"
	"sync"
)

// --- json-iterator stream pool (trimmed) ---

type Stream struct {
	cfg        *frozenConfig
	out        io.Writer
	buf        []byte
	Error      error
	Attachment interface{}
}

func NewStream(cfg *frozenConfig, out io.Writer, bufSize int) *Stream {
	return &Stream{
		cfg: cfg,
		out: out,
		buf: make([]byte, 0, bufSize),
	}
}

func (stream *Stream) Reset(out io.Writer) {
	stream.out = out
	stream.buf = stream.buf[:0]
}

// Buffer if writer is nil, use this method to take the result
func (stream *Stream) Buffer() []byte {
	return stream.buf
}

func (stream *Stream) WriteRaw(s string)    { stream.buf = append(stream.buf, s...) }
func (stream *Stream) WriteObjectStart()    { stream.buf = append(stream.buf, '{') }
func (stream *Stream) WriteObjectEnd()      { stream.buf = append(stream.buf, '}') }
func (stream *Stream) WriteArrayStart()     { stream.buf = append(stream.buf, '[') }
func (stream *Stream) WriteArrayEnd()       { stream.buf = append(stream.buf, ']') }
func (stream *Stream) WriteMore()           { stream.buf = append(stream.buf, ',') }
func (stream *Stream) WriteString(s string) { stream.buf = strconv.AppendQuote(stream.buf, s) }

func (stream *Stream) WriteObjectField(field string) {
	stream.WriteString(field)
	stream.buf = append(stream.buf, ':')
}

type frozenConfig struct {
	streamPool *sync.Pool
}

func newFrozenConfig() *frozenConfig {
	cfg := &frozenConfig{}
	cfg.streamPool = &sync.Pool{
		New: func() interface{} {
			return NewStream(cfg, nil, 512)
		},
	}
	return cfg
}

func (cfg *frozenConfig) BorrowStream(writer io.Writer) *Stream {
	stream := cfg.streamPool.Get().(*Stream)
	stream.Reset(writer)
	return stream
}

func (cfg *frozenConfig) ReturnStream(stream *Stream) {
	stream.out = nil
	stream.Error = nil
	stream.Attachment = nil
	cfg.streamPool.Put(stream)
}

var ConfigCompatibleWithStandardLibrary = newFrozenConfig()

// --- backend ---

type Frame struct {
	Name string
}

// QueryDataResponse contains the results from a QueryDataRequest.
// It is the return type of a QueryData call.
type QueryDataResponse struct {
	// Responses is a map of RefIDs (Unique Query ID) to *DataResponse.
	Responses Responses
}

// MarshalJSON writes the results as json
func (r QueryDataResponse) MarshalJSON() ([]byte, error) {
	cfg := ConfigCompatibleWithStandardLibrary
	stream := cfg.BorrowStream(nil)
	defer cfg.ReturnStream(stream)

	writeQueryDataResponseJSON(&r, stream)
	return stream.Buffer(), stream.Error // want `useafterput`
}

// Responses is a map of RefIDs (Unique Query ID) to DataResponses.
type Responses map[string]DataResponse

// DataResponse contains the results from a DataQuery.
type DataResponse struct {
	// The data returned from the Query. Each Frame repeats the RefID.
	Frames []*Frame

	// Error is a property to be set if the the corresponding DataQuery has an error.
	Error error
}

// MarshalJSON writes the results as json
func (r DataResponse) MarshalJSON() ([]byte, error) {
	cfg := ConfigCompatibleWithStandardLibrary
	stream := cfg.BorrowStream(nil)
	defer cfg.ReturnStream(stream)

	writeDataResponseJSON(&r, stream)
	return stream.Buffer(), stream.Error // want `useafterput`
}

func writeDataResponseJSON(dr *DataResponse, stream *Stream) {
	stream.WriteObjectStart()
	started := false

	if dr.Error != nil {
		stream.WriteObjectField("error")
		stream.WriteString(dr.Error.Error())
		started = true
	}

	if dr.Frames != nil {
		if started {
			stream.WriteMore()
		}

		started = false
		stream.WriteObjectField("frames")
		stream.WriteArrayStart()
		for _, frame := range dr.Frames {
			if started {
				stream.WriteMore()
			}
			stream.WriteString(frame.Name)
			started = true
		}
		stream.WriteArrayEnd()
	}

	stream.WriteObjectEnd()
}

func writeQueryDataResponseJSON(qdr *QueryDataResponse, stream *Stream) {
	stream.WriteObjectStart()
	stream.WriteObjectField("results")
	stream.WriteObjectStart()
	started := false

	refIDs := []string{}
	for refID := range qdr.Responses {
		refIDs = append(refIDs, refID)
	}
	sort.Strings(refIDs)

	// Make sure all keys in the result are written
	for _, refID := range refIDs {
		res := qdr.Responses[refID]

		if started {
			stream.WriteMore()
		}
		stream.WriteObjectField(refID)
		obj := res // avoid implicit memory
		writeDataResponseJSON(&obj, stream)
		started = true
	}
	stream.WriteObjectEnd()

	stream.WriteObjectEnd()
}
