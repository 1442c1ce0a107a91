// Package bug reproduces the shape of mattermost/logr commit 42db667
// (https://github.com/mattermost/logr/commit/42db66783412446acb70812de61a1e335188be7e,
// "limit size of pooled buffers"): the JSON formatter encoded every record
// into a bytes.Buffer taken from a package-level sync.Pool and, in a deferred
// closure, reset it and put it back unconditionally. One very large log item
// (a huge field or stack trace) grew a pooled buffer that then stayed in memory
// indefinitely. The fix added Logr.MaxPooledFormatBuffer (default 1MB) and only
// pooled buffers whose capacity is below it.
// (Both twins copy the encoded bytes before returning so that only the size
// problem is present here.)
// Check: unbounded (at the Put in the deferred closure).
package bug

import (
	"bytes"
	"encoding/json"
	"sync"
)

var bufferPool = sync.Pool{
	New: func() interface{} {
		return new(bytes.Buffer)
	},
}

// LogRec is one log record.
type LogRec struct {
	Level  string
	Msg    string
	Fields map[string]interface{}
	Stack  []string
}

// JSON formats log records as JSON.
type JSON struct {
	DisableStacktrace bool
	Indent            string
	EscapeHTML        bool
	KeyMsg            string
	KeyLevel          string
	KeyStacktrace     string
}

// Format converts a log record to bytes in JSON format.
func (j *JSON) Format(rec *LogRec, stacktrace bool) ([]byte, error) {
	j.applyDefaultKeyNames()

	data := make(map[string]interface{}, len(rec.Fields)+3)
	for k, v := range rec.Fields {
		data[k] = v
	}
	data[j.KeyLevel] = rec.Level
	data[j.KeyMsg] = rec.Msg
	if stacktrace && !j.DisableStacktrace && len(rec.Stack) > 0 {
		data[j.KeyStacktrace] = rec.Stack
	}

	var buf *bytes.Buffer = bufferPool.Get().(*bytes.Buffer)
	defer func() {
		buf.Reset()
		bufferPool.Put(buf) // want `unbounded`
	}()

	encoder := json.NewEncoder(buf)
	encoder.SetIndent("", j.Indent)
	encoder.SetEscapeHTML(j.EscapeHTML)

	if err := encoder.Encode(data); err != nil {
		return nil, err
	}
	out := make([]byte, buf.Len())
	copy(out, buf.Bytes())
	return out, nil
}

func (j *JSON) applyDefaultKeyNames() {
	if j.KeyLevel == "" {
		j.KeyLevel = "level"
	}
	if j.KeyMsg == "" {
		j.KeyMsg = "msg"
	}
	if j.KeyStacktrace == "" {
		j.KeyStacktrace = "stacktrace"
	}
}
