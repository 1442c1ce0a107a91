// Package bug reproduces the shape of olric-data/olric commit 5098452
// ("Fix a data race issue. Refactor encodeEvent function in cluster_events.go",
// https://github.com/olric-data/olric/commit/5098452ebbe0455a32ac809455827958321217a1):
// encodeEvent builds the JSON of a cluster event in a *bytes.Buffer taken
// from the internal bufpool, with `defer pool.Put(buf)`, and returns the result
// as util.BytesToString(buf.Bytes()) - a zero-copy string over the buffer's
// memory. The deferred Put resets the buffer and hands it to the next
// encodeEvent caller while the returned string still aliases it, so published
// events were overwritten by later ones (a data race). The fix drops the pool
// and encodes into a fresh bytes.Buffer.
// Check: useafterput (the returned string views the pooled buffer that the
// deferred Put releases; report at the return).
package bug

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// ---- internal/bufpool ----

type BufPool struct {
	p sync.Pool
}

func NewBufPool() *BufPool {
	return &BufPool{p: sync.Pool{New: func() interface{} { return new(bytes.Buffer) }}}
}

func (p *BufPool) Put(b *bytes.Buffer) {
	if b.Cap() > 1<<16 {
		return
	}
	b.Reset()
	p.p.Put(b)
}

func (p *BufPool) Get() *bytes.Buffer {
	return p.p.Get().(*bytes.Buffer)
}

// ---- internal/util ----

// BytesToString converts without copying.
func BytesToString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// ---- events ----

var pool = NewBufPool()

// encodeEvent encodes data to JSON keeping the order of fields.
func encodeEvent(data interface{}, fields []string, valueExtractor func(r reflect.Value, field string) (interface{}, error)) (string, error) {
	buf := pool.Get()
	defer pool.Put(buf)

	buf.WriteString("{")
	r := reflect.Indirect(reflect.ValueOf(data))
	for i, field := range fields {
		sf, ok := r.Type().FieldByName(field)
		if !ok {
			return "", fmt.Errorf("field not found: %s", field)
		}
		tag, err := strconv.Unquote(strings.TrimPrefix(string(sf.Tag), "json:"))
		if err != nil {
			return "", err
		}
		value, err := valueExtractor(r, field)
		if err != nil {
			return "", err
		}
		if i != 0 {
			buf.WriteString(",")
		}
		key, err := json.Marshal(tag)
		if err != nil {
			return "", err
		}
		buf.Write(key)
		buf.WriteString(":")
		val, err := json.Marshal(value)
		if err != nil {
			return "", err
		}
		buf.Write(val)
	}
	buf.WriteString("}")
	return BytesToString(buf.Bytes()), nil // want `useafterput`
}

type NodeJoinEvent struct {
	Kind      string `json:"kind"`
	Source    string `json:"source"`
	NodeJoin  string `json:"node_join"`
	Timestamp int64  `json:"timestamp"`
}

func (n *NodeJoinEvent) Encode() (string, error) {
	fields := []string{"Timestamp", "Source", "Kind", "NodeJoin"}
	return encodeEvent(n, fields, func(r reflect.Value, field string) (interface{}, error) {
		switch field {
		case "Timestamp":
			return r.FieldByName(field).Int(), nil
		case "Source", "Kind", "NodeJoin":
			return r.FieldByName(field).String(), nil
		default:
			return nil, fmt.Errorf("invalid field: %s", field)
		}
	})
}
