// Package bug reproduces the shape of redis/rueidis#312
// (https://github.com/redis/rueidis/issues/312, fixed by
// https://github.com/redis/rueidis/pull/318 and later #613): the command
// builder recycles its CommandSlice through a sync.Pool, and Put only
// truncated the []string of command tokens to [:0]. The backing array kept
// every key and argument string of the last command alive while the slice
// sat idle in the pool (a very long value could stay pinned indefinitely).
//
// Check: noreset (slice field whose elements hold references truncated to
// [:0] without clearing them right before the Put; reported at the Put).
package bug

import "sync"

var pool = &sync.Pool{New: func() any {
	return &CommandSlice{s: make([]string, 0, 2), l: -1}
}}

// CommandSlice holds the tokens of one command.
type CommandSlice struct {
	s []string
	l int32
}

func get() *CommandSlice {
	return pool.Get().(*CommandSlice)
}

// Put recycles the CommandSlice.
func Put(cs *CommandSlice) {
	cs.s = cs.s[:0]
	cs.l = -1
	pool.Put(cs) // want `noreset`
}

// Command is a command under construction or completed.
type Command struct {
	cs *CommandSlice
}

// Arbitrary starts a command with the given tokens.
func Arbitrary(token ...string) Command {
	c := Command{cs: get()}
	c.cs.s = append(c.cs.s, token...)
	return c
}

// Args appends non-key arguments.
func (c Command) Args(args ...string) Command {
	c.cs.s = append(c.cs.s, args...)
	return c
}

// Build completes the command.
func (c Command) Build() Command {
	if c.cs.l != -1 {
		panic("a command should not be built twice")
	}
	c.cs.l = int32(len(c.cs.s))
	return c
}

// Commands returns the tokens.
func (c Command) Commands() []string { return c.cs.s }

// Do sends the command and recycles it.
func Do(send func([]string) error, key, value string) error {
	c := Arbitrary("SET", key).Args(value).Build()
	err := send(c.Commands())
	Put(c.cs)
	return err
}
