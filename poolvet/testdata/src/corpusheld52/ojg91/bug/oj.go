// Source: https://github.com/ohler55/ojg/pull/91
// (commit https://github.com/ohler55/ojg/commit/02f086655da668d568167f3220a2b2dd11e2d3eb,
// "Fix and test buffer reuse", ojg v1.14.3).
// Domain note: writer A's LLM/AI-tooling domain ran dry; this is a general
// Go JSON library (ohler55/ojg), not on the avoid list.
//
// Bug: oj.Marshal takes a *Writer from marshalPool, defers
// marshalPool.Put(wr), encodes into the writer's internal buffer and then
// returns that buffer (out = wr.buf) to the caller. The deferred Put runs as
// Marshal returns, so the []byte the caller holds is the pooled writer's
// buffer; the next Marshal that gets the same writer truncates it
// (wr.buf[:0]) and overwrites the caller's bytes.
// Fix: Marshal copies the internal buffer into a fresh slice
// (out = make([]byte, len(wr.buf)); copy(out, wr.buf)) before returning.
//
// Check: useafterput (the return of Marshal, where wr.buf, memory of the
// writer that the deferred marshalPool.Put hands back, escapes to the caller)
package bug

import (
	"fmt"
	"strconv"
	"sync"
)

// Options for writing (trimmed ojg.Options).
type Options struct {
	Indent   int
	Sort     bool
	InitSize int
}

var goOptions = Options{InitSize: 256}

// Writer is a JSON writer that includes a reused buffer for reduced
// allocations for repeated encoding calls.
type Writer struct {
	Options
	buf    []byte
	strict bool
}

var marshalPool = sync.Pool{
	New: func() interface{} {
		return &Writer{Options: goOptions, buf: make([]byte, 0, 1024), strict: true}
	},
}

// MustJSON writes data, JSON encoded as a []byte and not a string like the
// JSON() function. On error a panic is called with the error.
func (wr *Writer) MustJSON(data interface{}) []byte {
	if wr.InitSize <= 0 {
		wr.InitSize = 256
	}
	if cap(wr.buf) < wr.InitSize {
		wr.buf = make([]byte, 0, wr.InitSize)
	} else {
		wr.buf = wr.buf[:0]
	}
	wr.appendJSON(data)
	return wr.buf
}

func (wr *Writer) appendJSON(data interface{}) {
	switch td := data.(type) {
	case nil:
		wr.buf = append(wr.buf, "null"...)
	case bool:
		wr.buf = strconv.AppendBool(wr.buf, td)
	case int:
		wr.buf = strconv.AppendInt(wr.buf, int64(td), 10)
	case string:
		wr.buf = strconv.AppendQuote(wr.buf, td)
	case []interface{}:
		wr.buf = append(wr.buf, '[')
		for i, v := range td {
			if 0 < i {
				wr.buf = append(wr.buf, ',')
			}
			wr.appendJSON(v)
		}
		wr.buf = append(wr.buf, ']')
	default:
		if wr.strict {
			panic(fmt.Errorf("%T can not be encoded as a JSON element", data))
		}
		wr.buf = strconv.AppendQuote(wr.buf, fmt.Sprintf("%v", td))
	}
}

func pickWriter(arg interface{}, strict bool) (wr *Writer) {
	switch ta := arg.(type) {
	case int:
		wr = &Writer{
			Options: goOptions,
			buf:     make([]byte, 0, 1024),
			strict:  strict,
		}
		wr.Indent = ta
	case *Options:
		wr = &Writer{
			Options: *ta,
			buf:     make([]byte, 0, 1024),
			strict:  strict,
		}
	case *Writer:
		wr = ta
	}
	return
}

// Marshal returns a JSON string for the data provided. An error will be
// returned if a value is encountered that can not be encoded.
func Marshal(data interface{}, args ...interface{}) (out []byte, err error) {
	var wr *Writer
	if 0 < len(args) {
		wr = pickWriter(args[0], true)
	}
	if wr == nil {
		wr, _ = marshalPool.Get().(*Writer)
		defer marshalPool.Put(wr)
	} else {
		wr.strict = true
	}
	defer func() {
		if r := recover(); r != nil {
			wr.buf = wr.buf[:0]
			err = fmt.Errorf("%v", r)
		}
	}()
	wr.MustJSON(data)
	out = wr.buf

	return // want `useafterput`
}
