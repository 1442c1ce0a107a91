// Package bug is the fixed twin of mattermost/logr commit 42db667
// (https://github.com/mattermost/logr/commit/42db66783412446acb70812de61a1e335188be7e):
// the deferred closure only puts the buffer back when its capacity is below
// the logger's MaxPooledFormatBuffer (default 1MB).
// Check: unbounded (none in this twin).
package bug

import (
	"bytes"
	"encoding/json"
	"sync"
)

// DefaultMaxPooledFormatBuffer is the maximum size a pooled format buffer can be.
const DefaultMaxPooledFormatBuffer = 1024 * 1024

var bufferPool = sync.Pool{
	New: func() interface{} {
		return new(bytes.Buffer)
	},
}

// Logr holds logger-wide settings.
type Logr struct {
	MaxPooledFormatBuffer int
}

// LogRec is one log record.
type LogRec struct {
	logr   *Logr
	Level  string
	Msg    string
	Fields map[string]interface{}
	Stack  []string
}

// Logr returns the owning Logr.
func (rec *LogRec) Logr() *Logr { return rec.logr }

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
		if buf.Cap() < rec.Logr().MaxPooledFormatBuffer {
			buf.Reset()
			bufferPool.Put(buf)
		}
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

// NewLogr applies defaults.
func NewLogr() *Logr {
	return &Logr{MaxPooledFormatBuffer: DefaultMaxPooledFormatBuffer}
}
