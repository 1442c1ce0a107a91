// Source: https://github.com/olric-data/olric/commit/235bef547588b551e12d10a5b44d6d5921402b0d
// ("Fix a data race issue. Refactor encodeEvent function in cluster_events.go")
//
// Bug: encodeEvent builds the JSON of a cluster event in a *bytes.Buffer
// taken from olric's bufpool (a sync.Pool wrapper whose Put resets the buffer)
// and releases it with a deferred pool.Put. The result is returned as
// util.BytesToString(buf.Bytes()), which (in the default !appengine build)
// is a zero-copy unsafe conversion: the returned string aliases the pooled
// buffer's memory. After the deferred Put, another goroutine encoding another
// event gets the same buffer and overwrites the bytes while the caller is
// still publishing the first event's string (a data race / corrupted event).
// Fix: drop the pool in encodeEvent and use a fresh bytes.NewBuffer(nil).
//
// Check: useafterput (at the return of util.BytesToString(buf.Bytes()): the
// returned string shares the pooled buffer's memory past the deferred Put)
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

// BufPool maintains a buffer pool (internal/bufpool).
type BufPool struct {
	p sync.Pool
}

// New creates a new BufPool.
func New() *BufPool {
	return &BufPool{
		p: sync.Pool{
			New: func() interface{} {
				return new(bytes.Buffer)
			},
		},
	}
}

// Put resets the buffer and puts it back to the pool.
func (p *BufPool) Put(b *bytes.Buffer) {
	b.Reset()
	p.p.Put(b)
}

// Get returns an empty buffer from the pool.
func (p *BufPool) Get() *bytes.Buffer {
	return p.p.Get().(*bytes.Buffer)
}

// BytesToString converts byte slice to string (internal/util, !appengine).
func BytesToString(b []byte) string {
	return *(*string)(unsafe.Pointer(&b))
}

var pool = New()

const (
	ClusterEventsChannel = "cluster.events"
	KindNodeJoinEvent    = "node-join-event"
	KindNodeLeftEvent    = "node-left-event"
)

type Event interface {
	Encode() (string, error)
}

// encodeEvents encodes given interface to its JSON representation and preserves the order in fields slice.
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

		tag := strings.Trim(string(sf.Tag), "json:")
		tag, err := strconv.Unquote(tag)
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

		// marshal key
		key, err := json.Marshal(tag)
		if err != nil {
			return "", err
		}
		buf.Write(key)

		buf.WriteString(":")
		// marshal value
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
		var value interface{}
		switch field {
		case "Timestamp":
			value = r.FieldByName(field).Int()
		case "Source", "Kind", "NodeJoin":
			value = r.FieldByName(field).String()
		default:
			return nil, fmt.Errorf("invalid field: %s", field)
		}
		return value, nil
	})
}

type NodeLeftEvent struct {
	Kind      string `json:"kind"`
	Source    string `json:"source"`
	NodeLeft  string `json:"node_left"`
	Timestamp int64  `json:"timestamp"`
}

func (n *NodeLeftEvent) Encode() (string, error) {
	fields := []string{"Timestamp", "Source", "Kind", "NodeLeft"}
	return encodeEvent(n, fields, func(r reflect.Value, field string) (interface{}, error) {
		var value interface{}
		switch field {
		case "Timestamp":
			value = r.FieldByName(field).Int()
		case "Source", "Kind", "NodeLeft":
			value = r.FieldByName(field).String()
		default:
			return nil, fmt.Errorf("invalid field: %s", field)
		}
		return value, nil
	})
}

// Publisher is the redis client's Publish, trimmed.
type Publisher interface {
	Publish(channel string, message string) error
}

// publishNodeJoinEvent is how the routing table uses Encode.
func publishNodeJoinEvent(rc Publisher, source, member string, ts int64) error {
	message := NodeJoinEvent{
		Kind:      KindNodeJoinEvent,
		Source:    source,
		NodeJoin:  member,
		Timestamp: ts,
	}
	data, err := message.Encode()
	if err != nil {
		return err
	}
	return rc.Publish(ClusterEventsChannel, data)
}
