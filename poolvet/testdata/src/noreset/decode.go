package noreset

import (
	"encoding/json"
	"sync"
)

// A custom UnmarshalJSON decides whether decoding merges.

type call struct{ Name string }

// oneOf's UnmarshalJSON clears both fields first: decoding leaves nothing
// of the previous user.
type oneOf struct {
	Object *call
	Array  []call
}

func (o *oneOf) UnmarshalJSON(data []byte) error {
	o.Object, o.Array = nil, nil
	if len(data) > 0 && data[0] == '[' {
		return json.Unmarshal(data, &o.Array)
	}
	o.Object = new(call)
	return json.Unmarshal(data, o.Object)
}

var oneOfPool = sync.Pool{New: func() any { return new(oneOf) }}

func isArray(data []byte) bool {
	o := oneOfPool.Get().(*oneOf)
	defer oneOfPool.Put(o)
	if json.Unmarshal(data, o) != nil {
		return false
	}
	return o.Array != nil
}

// mergeOf's UnmarshalJSON sets only the field its input has.
type mergeOf struct {
	Object *call
	Array  []call
}

func (o *mergeOf) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '[' {
		return json.Unmarshal(data, &o.Array)
	}
	o.Object = new(call)
	return json.Unmarshal(data, o.Object)
}

var mergeOfPool = sync.Pool{New: func() any { return new(mergeOf) }}

func isArrayMerged(data []byte) bool {
	o := mergeOfPool.Get().(*mergeOf)
	defer mergeOfPool.Put(o) // want `was decoded into without being cleared`
	if json.Unmarshal(data, o) != nil {
		return false
	}
	return o.Array != nil
}

// A pooled map decoded into keeps the keys the next input lacks.
var mapPool = sync.Pool{New: func() any { return map[string]any{} }}

func countKeys(data []byte) int {
	m := mapPool.Get().(map[string]any)
	json.Unmarshal(data, &m)
	n := len(m)
	mapPool.Put(m) // want `m \(map\[string\]any\) was decoded into without being cleared`
	return n
}

func countKeysCleared(data []byte) int {
	m := mapPool.Get().(map[string]any)
	clear(m)
	json.Unmarshal(data, &m)
	n := len(m)
	mapPool.Put(m)
	return n
}
