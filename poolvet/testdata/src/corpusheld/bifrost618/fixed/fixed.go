// Package fixed is the fix of maximhq/bifrost#618
// (https://github.com/maximhq/bifrost/pull/618): UnmarshalJSON clears both
// fields first, on every path including "null".
package fixed

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
	c.Object = nil
	c.Array = nil
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
	defer toolCallPool.Put(c)
	if err := json.Unmarshal(data, c); err != nil {
		return "", err
	}
	if c.Object != nil {
		return "object", nil
	}
	return "array", nil
}
