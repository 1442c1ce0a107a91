// Package bug reproduces the shape of muktihari/fit#479
// (https://github.com/muktihari/fit/pull/479): the generated mesgdef code
// borrows a fixed-size *[poolsize]proto.Field array from a sync.Pool, builds
// the message's fields by appending to arr[:0], copies them out, then clears
// "fields" and puts arr back. When a message has more fields than the array
// holds, append moves to a new backing array, clear wipes that one, and the
// pooled array goes back still holding the first poolsize fields (and the
// values they point to).
//
// Check: noreset (pooled array of pointer-holding elements put back without
// clearing its own elements; reported at the Put).
package bug

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
	clear(fields)
	pool.Put(arr) // want `noreset`
	return mesg
}
