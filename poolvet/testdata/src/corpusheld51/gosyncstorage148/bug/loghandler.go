package bug

import (
	"bytes"
	"encoding/json"
	"sync"
	"time"
)

// Trimmed stand-ins for the logrus types the formatter receives.
type Fields map[string]interface{}

type Level uint32

const (
	PanicLevel Level = iota
	FatalLevel
	ErrorLevel
	WarnLevel
	InfoLevel
	DebugLevel
)

type Entry struct {
	Data    Fields
	Time    time.Time
	Level   Level
	Message string
}

// mozlog represents the MozLog standard format https://github.com/mozilla-services/Dockerflow/blob/master/docs/mozlog.md
type mozlog struct {
	Timestamp  int64
	Type       string
	Logger     string
	Hostname   string
	EnvVersion string
	Pid        int
	Severity   uint8
	Fields     Fields
}

// MozlogFormatter is a custom logrus formatter
type MozlogFormatter struct {
	Hostname string
	Pid      int
}

var encoderPool = sync.Pool{
	New: func() interface{} {
		return new(bytes.Buffer)
	},
}

// Format a logrus.Entry into a mozlog JSON object
func (f *MozlogFormatter) Format(entry *Entry) ([]byte, error) {

	m := &mozlog{
		Timestamp:  entry.Time.UnixNano(),
		Type:       "mozsvc.metrics",
		Logger:     "Sync-1_5",
		Hostname:   f.Hostname,
		EnvVersion: "2.0",
		Pid:        f.Pid,
		Severity:   0,
		Fields:     entry.Data,
	}

	if entry.Message != "" {
		entry.Data["msg"] = entry.Message
	}

	switch entry.Level {
	case PanicLevel:
		m.Severity = 1
	case FatalLevel:
		m.Severity = 2
	case ErrorLevel:
		m.Severity = 3
	case WarnLevel:
		m.Severity = 4
	case InfoLevel:
		m.Severity = 6
	case DebugLevel:
		m.Severity = 7
	}

	b := encoderPool.Get().(*bytes.Buffer)
	defer func() {
		b.Reset()
		encoderPool.Put(b)
	}()

	// encode the fields in there
	enc := json.NewEncoder(b)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}

	return b.Bytes(), nil // want `useafterput`
}
