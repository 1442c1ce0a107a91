// Package bug reproduces the shape of VictoriaMetrics/VictoriaMetrics commit
// 159b71c (https://github.com/VictoriaMetrics/VictoriaMetrics/commit/159b71cabb496a65e3024ac4adcf5a8346d10e3e,
// "lib/protoparser/influx: properly clean references to underlying byte slices
// from tagsPool and fieldsPool inside unmarshalContext"): the influx stream
// parser recycles unmarshalWork objects through a sync.Pool; putUnmarshalWork
// calls uw.reset -> Rows.Reset -> unmarshalContext.reset, which only truncates
// the tagsPool/fieldsPool scratch slices with [:0]. The Tag/Field structs left
// in the backing arrays keep their Key/Value strings, so an idle pooled
// unmarshalWork pins the previous request's data. The fix clear()s both
// slices before truncating them.
//
// (clear(rs.Rows) in Rows.Reset is not part of this bug; it is present in
// both twins.)
//
// Check: noreset (in unmarshalContext.reset, which truncates without clearing).
package bug

import (
	"strings"
	"sync"
)

// Rows contains parsed influx rows.
type Rows struct {
	Rows []Row

	uc unmarshalContext
}

type unmarshalContext struct {
	tagsPool   []Tag
	fieldsPool []Field

	buf []byte

	hasEscapeChars  bool
	hasQuotedFields bool
}

// Reset resets rs.
func (rs *Rows) Reset() {
	clear(rs.Rows)
	rs.Rows = rs.Rows[:0]
	rs.uc.reset()
}

func (uc *unmarshalContext) reset() { // want `noreset`
	uc.tagsPool = uc.tagsPool[:0]
	uc.fieldsPool = uc.fieldsPool[:0]
	uc.buf = uc.buf[:0]

	uc.hasEscapeChars = false
	uc.hasQuotedFields = false
}

// Row is a single influx row.
type Row struct {
	Measurement string
	Tags        []Tag
	Fields      []Field
}

// Tag represents influx tag.
type Tag struct {
	Key   string
	Value string
}

// Field represents influx field.
type Field struct {
	Key   string
	Value string
}

// Unmarshal unmarshals lines of the form `measurement,k=v,k=v f=v,f=v`.
func (rs *Rows) Unmarshal(s string) {
	rs.Reset()
	for _, line := range strings.Split(s, "\n") {
		if line == "" {
			continue
		}
		var r Row
		r.unmarshal(line, &rs.uc)
		rs.Rows = append(rs.Rows, r)
	}
}

func (r *Row) unmarshal(s string, uc *unmarshalContext) {
	head, fieldsStr, _ := strings.Cut(s, " ")
	parts := strings.Split(head, ",")
	r.Measurement = parts[0]

	tagsStart := len(uc.tagsPool)
	for _, kv := range parts[1:] {
		k, v, _ := strings.Cut(kv, "=")
		if cap(uc.tagsPool) > len(uc.tagsPool) {
			uc.tagsPool = uc.tagsPool[:len(uc.tagsPool)+1]
		} else {
			uc.tagsPool = append(uc.tagsPool, Tag{})
		}
		tag := &uc.tagsPool[len(uc.tagsPool)-1]
		tag.Key, tag.Value = k, v
	}
	tags := uc.tagsPool[tagsStart:]
	r.Tags = tags[:len(tags):len(tags)]

	fieldsStart := len(uc.fieldsPool)
	for _, kv := range strings.Split(fieldsStr, ",") {
		k, v, _ := strings.Cut(kv, "=")
		if cap(uc.fieldsPool) > len(uc.fieldsPool) {
			uc.fieldsPool = uc.fieldsPool[:len(uc.fieldsPool)+1]
		} else {
			uc.fieldsPool = append(uc.fieldsPool, Field{})
		}
		f := &uc.fieldsPool[len(uc.fieldsPool)-1]
		f.Key, f.Value = k, v
	}
	fields := uc.fieldsPool[fieldsStart:]
	r.Fields = fields[:len(fields):len(fields)]
}

type unmarshalWork struct {
	rows     Rows
	callback func(db string, rows []Row) error
	db       string
	reqBuf   []byte
}

func (uw *unmarshalWork) reset() {
	uw.rows.Reset()
	uw.callback = nil
	uw.db = ""
	uw.reqBuf = uw.reqBuf[:0]
}

// Unmarshal parses the request buffer, runs the callback and recycles uw.
func (uw *unmarshalWork) Unmarshal() error {
	uw.rows.Unmarshal(string(uw.reqBuf))
	err := uw.callback(uw.db, uw.rows.Rows)
	putUnmarshalWork(uw)
	return err
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

// Parse hands one request body to a pooled unmarshalWork.
func Parse(db string, body []byte, callback func(db string, rows []Row) error) error {
	uw := getUnmarshalWork()
	uw.db = db
	uw.callback = callback
	uw.reqBuf = append(uw.reqBuf[:0], body...)
	return uw.Unmarshal()
}
