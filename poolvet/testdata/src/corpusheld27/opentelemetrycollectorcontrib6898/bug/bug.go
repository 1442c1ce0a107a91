// Package bug reproduces the shape of open-telemetry/opentelemetry-collector-contrib#6898
// (https://github.com/open-telemetry/opentelemetry-collector-contrib/pull/6898,
// "[exporter/dynatrace] Remove unsafe CheckedEntry re-use"): the Dynatrace exporter's
// SerializeMetric obtained one zap CheckedEntry with logger.Check at the top, wrote
// it once before serializing the data points and wrote the same entry again at the
// end. CheckedEntry.Write returns the entry to zap's sync.Pool, so the second Write
// works on an object that may already have been handed to another goroutine's
// Check. The fix writes the entry exactly once, at the bottom, with all fields.
// (zap's pooled CheckedEntry is modelled here with a small stdlib logger.)
//
// Check: useafterput (the entry is used again after the first Write put it back into
// the pool; report at the second Write).
package bug

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"
)

type Level int8

const (
	DebugLevel Level = iota - 1
	InfoLevel
	WarnLevel
)

type Field struct {
	Key string
	Val string
}

func String(k, v string) Field  { return Field{Key: k, Val: v} }
func Int(k string, v int) Field { return Field{Key: k, Val: strconv.Itoa(v)} }

type Entry struct {
	Level   Level
	Time    time.Time
	Message string
}

type Core interface {
	Write(Entry, []Field) error
}

// CheckedEntry is an entry that has been checked against the logger's level and
// holds the cores that will write it. Instances are pooled.
type CheckedEntry struct {
	Entry       Entry
	ErrorOutput io.Writer
	cores       []Core
}

var cePool = sync.Pool{New: func() any {
	return &CheckedEntry{cores: make([]Core, 0, 4)}
}}

func getCheckedEntry() *CheckedEntry {
	ce := cePool.Get().(*CheckedEntry)
	ce.Entry = Entry{}
	ce.ErrorOutput = nil
	ce.cores = ce.cores[:0]
	return ce
}

func putCheckedEntry(ce *CheckedEntry) {
	if ce == nil {
		return
	}
	cePool.Put(ce)
}

// Write writes the entry to the stored cores and returns the CheckedEntry to the
// pool. It must be called at most once.
func (ce *CheckedEntry) Write(fields ...Field) {
	if ce == nil {
		return
	}
	var err error
	for i := range ce.cores {
		err = errors.Join(err, ce.cores[i].Write(ce.Entry, fields))
	}
	if err != nil && ce.ErrorOutput != nil {
		fmt.Fprintf(ce.ErrorOutput, "%v write error: %v\n", ce.Entry.Time, err)
	}
	putCheckedEntry(ce)
}

type Logger struct {
	level Level
	core  Core
}

func (l *Logger) Check(lvl Level, msg string) *CheckedEntry {
	if lvl < l.level {
		return nil
	}
	ce := getCheckedEntry()
	ce.Entry = Entry{Level: lvl, Time: time.Now(), Message: msg}
	ce.ErrorOutput = os.Stderr
	ce.cores = append(ce.cores, l.core)
	return ce
}

func (l *Logger) Warn(msg string, fields ...Field) {
	if ce := l.Check(WarnLevel, msg); ce != nil {
		ce.Write(fields...)
	}
}

type DataPoint struct {
	Attrs map[string]string
	Value float64
	Ts    int64
}

type Metric struct {
	Name     string
	DataType string
	Points   []DataPoint
}

func serializeGauge(name, prefix string, dp DataPoint) (string, error) {
	if name == "" {
		return "", errors.New("empty metric name")
	}
	line := prefix + name
	for k, v := range dp.Attrs {
		line += "," + k + "=" + strconv.Quote(v)
	}
	return line + " gauge," + strconv.FormatFloat(dp.Value, 'f', -1, 64) + " " + strconv.FormatInt(dp.Ts, 10), nil
}

// SerializeMetric turns one metric into Dynatrace ingest lines.
func SerializeMetric(logger *Logger, prefix string, metric Metric) ([]string, error) {
	var metricLines []string

	ce := logger.Check(DebugLevel, "SerializeMetric")
	if ce != nil {
		ce.Write(String("DataType", metric.DataType))
	}

	var points int
	switch metric.DataType {
	case "Gauge", "Sum":
		points = len(metric.Points)
		for _, dp := range metric.Points {
			line, err := serializeGauge(metric.Name, prefix, dp)
			if err != nil {
				logger.Warn("Error serializing data point", String("name", metric.Name), String("error", err.Error()))
			}
			if line != "" {
				metricLines = append(metricLines, line)
			}
		}
	default:
		return nil, fmt.Errorf("metric type %s unsupported", metric.DataType)
	}

	if ce != nil {
		ce.Write(Int("points", points)) // want `useafterput`
	}

	return metricLines, nil
}
