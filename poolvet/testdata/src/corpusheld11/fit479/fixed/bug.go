// Package fixed is the fix of muktihari/fit#479
// (https://github.com/muktihari/fit/pull/479): the pooled array itself is
// zeroed (*arr = [poolsize]Field{}) before the Put, whichever backing array
// append ended up using.
package fixed

import "sync"

type Value struct {
	v any
}

type Field struct {
	Num   byte
	Name  string
	Value Value
}

type Message struct {
	Num    uint16
	Fields []Field
}

const poolsize = 8

var pool = sync.Pool{New: func() any { return new([poolsize]Field) }}

type Activity struct {
	Timestamp     uint32
	NumSessions   uint16
	Event         byte
	UnknownFields []Field
}

// ToMesg converts the struct back into a message.
func (m *Activity) ToMesg() Message {
	arr := pool.Get().(*[poolsize]Field)
	fields := arr[:0]

	mesg := Message{Num: 34}
	if m.Timestamp != 0 {
		fields = append(fields, Field{Num: 253, Name: "timestamp", Value: Value{m.Timestamp}})
	}
	if m.NumSessions != 0 {
		fields = append(fields, Field{Num: 1, Name: "num_sessions", Value: Value{m.NumSessions}})
	}
	if m.Event != 0 {
		fields = append(fields, Field{Num: 3, Name: "event", Value: Value{m.Event}})
	}
	for i := range m.UnknownFields {
		fields = append(fields, m.UnknownFields[i])
	}

	mesg.Fields = make([]Field, len(fields))
	copy(mesg.Fields, fields)
	*arr = [poolsize]Field{}
	pool.Put(arr)
	return mesg
}
