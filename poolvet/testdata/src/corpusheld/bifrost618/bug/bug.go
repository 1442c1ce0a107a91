// Package bug reproduces the shape of maximhq/bifrost#618
// (https://github.com/maximhq/bifrost/pull/618), review of
// core/schemas/providers/cohere/types.go: streaming wrappers became pooled,
// but their UnmarshalJSON set only the field matching the payload (array or
// object) and left the other one from the previous decode, so consumers
// checking "!= nil" read stale data.
//
// Check: noreset (decoding into a pooled object without clearing it).
package bug

import (
	"encoding/json"
	"errors"
	"sync"
)

type ToolCall struct {
	Name string `json:"name"`
}

type StreamToolCall struct {
	Object *ToolCall
	Array  []ToolCall
}

func (c *StreamToolCall) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	var arr []ToolCall
	if err := json.Unmarshal(data, &arr); err == nil {
		c.Array = arr
		return nil
	}
	var obj ToolCall
	if err := json.Unmarshal(data, &obj); err == nil {
		c.Object = &obj
		return nil
	}
	return errors.New("tool call is neither array nor object")
}

var toolCallPool = sync.Pool{New: func() any { return new(StreamToolCall) }}

func Kind(data []byte) (string, error) {
	c := toolCallPool.Get().(*StreamToolCall)
	defer toolCallPool.Put(c) // want `noreset|without Reset|not reset|clear|stale|decod`
	if err := json.Unmarshal(data, c); err != nil {
		return "", err
	}
	if c.Object != nil {
		return "object", nil
	}
	return "array", nil
}
