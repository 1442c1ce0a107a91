// Source: https://github.com/VictoriaMetrics/VictoriaMetrics/commit/ac7c0889643e465ac992e242bccac7814ddf5d23
// ("lib/protoparser/influx: properly clean references to underlying byte
// slices from tagsPool and fieldsPool inside unmarshalContext").
//
// Bug: influx rows are parsed by pooled unmarshalWork objects. Each holds
// influx.Rows whose unmarshalContext keeps tagsPool/fieldsPool slices of Tag
// and Field values; their Key/Value strings are zero-copy strings into the
// request buffer (or uc.buf). putUnmarshalWork calls uw.reset(), whose
// unmarshalContext.reset only truncated tagsPool and fieldsPool ([:0]), and
// entries dropped after a parse error were also only truncated, so the
// pooled object kept references to the old request's byte slices alive
// ("memory leaks when unmarshalContext fields point to unused byte slices").
//
// Fix: reset clears tagsPool and fieldsPool before truncating them, and the
// entries dropped on errors are reset (removeLastTag; fields are handled the
// same way upstream and are omitted here).
//
// Check: noreset (unmarshalContext.reset, called from putUnmarshalWork before
// the work goes back to unmarshalWorkPool, forgets to clear the tag and
// field entries that reference the previous request's bytes)
package fixed

import (
	"errors"
	"strings"
	"sync"
	"unsafe"
)

// ToUnsafeString is bytesutil.ToUnsafeString.
func ToUnsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Rows contains parsed influx rows.
type Rows struct {
	Rows []Row

	uc unmarshalContext
}

type unmarshalContext struct {
	tagsPool []Tag

	buf []byte
}

// Reset resets rs.
func (rs *Rows) Reset() {
	rs.Rows = rs.Rows[:0]
	rs.uc.reset()
}

func (uc *unmarshalContext) reset() {
	clear(uc.tagsPool)
	uc.tagsPool = uc.tagsPool[:0]

	uc.buf = uc.buf[:0]
}

func (uc *unmarshalContext) addTag() *Tag {
	if cap(uc.tagsPool) > len(uc.tagsPool) {
		uc.tagsPool = uc.tagsPool[:len(uc.tagsPool)+1]
	} else {
		uc.tagsPool = append(uc.tagsPool, Tag{})
	}
	return &uc.tagsPool[len(uc.tagsPool)-1]
}

func (uc *unmarshalContext) removeLastTag() {
	tag := &uc.tagsPool[len(uc.tagsPool)-1]
	tag.reset()

	uc.tagsPool = uc.tagsPool[:len(uc.tagsPool)-1]
}

// Row is a single influx row.
type Row struct {
	Measurement string
	Tags        []Tag
}

// Tag represents influx tag.
type Tag struct {
	Key   string
	Value string
}

func (tag *Tag) reset() {
	tag.Key = ""
	tag.Value = ""
}

var errMissingTagValue = errors.New("missing tag value")

func (tag *Tag) unmarshal(s string) error {
	tag.reset()
	n := strings.IndexByte(s, '=')
	if n < 0 {
		return errMissingTagValue
	}
	tag.Key = s[:n]
	tag.Value = s[n+1:]
	return nil
}

func unmarshalTags(s string, uc *unmarshalContext) error {
	for {
		tag := uc.addTag()
		n := strings.IndexByte(s, ',')
		if n < 0 {
			if err := tag.unmarshal(s); err != nil {
				uc.removeLastTag()
				return err
			}
			if len(tag.Key) == 0 || len(tag.Value) == 0 {
				// Skip empty tag
				uc.removeLastTag()
			}
			return nil
		}
		if err := tag.unmarshal(s[:n]); err != nil {
			uc.removeLastTag()
			return err
		}
		s = s[n+1:]
		if len(tag.Key) == 0 || len(tag.Value) == 0 {
			// Skip empty tag
			uc.removeLastTag()
		}
	}
}

func (rs *Rows) unmarshal(s string) {
	for _, line := range strings.Split(s, "\n") {
		measurement, tags, _ := strings.Cut(line, ",")
		tagsStart := len(rs.uc.tagsPool)
		if err := unmarshalTags(tags, &rs.uc); err != nil {
			continue
		}
		t := rs.uc.tagsPool[tagsStart:]
		rs.Rows = append(rs.Rows, Row{Measurement: measurement, Tags: t[:len(t):len(t)]})
	}
}

type unmarshalWork struct {
	rows     Rows
	callback func(rows []Row) error
	reqBuf   []byte
}

func (uw *unmarshalWork) reset() {
	uw.rows.Reset()
	uw.callback = nil
	uw.reqBuf = uw.reqBuf[:0]
}

// Unmarshal implements protoparserutil.UnmarshalWork
func (uw *unmarshalWork) Unmarshal() {
	uw.rows.Reset()
	uw.rows.unmarshal(ToUnsafeString(uw.reqBuf))
	_ = uw.callback(uw.rows.Rows)
	putUnmarshalWork(uw)
}

func getUnmarshalWork() *unmarshalWork {
	v := unmarshalWorkPool.Get()
	if v == nil {
		v = &unmarshalWork{}
	}
	return v.(*unmarshalWork)
}

func putUnmarshalWork(uw *unmarshalWork) {
	uw.reset()
	unmarshalWorkPool.Put(uw)
}

var unmarshalWorkPool sync.Pool

// Parse schedules parsing of data.
func Parse(data []byte, callback func(rows []Row) error) {
	uw := getUnmarshalWork()
	uw.callback = callback
	uw.reqBuf = append(uw.reqBuf[:0], data...)
	uw.Unmarshal()
}
