// Package fixed is the fixed twin of corpusheld8/rueidis312: Put clears the
// token strings before truncating, so the idle slice references nothing.
package fixed

import "sync"

var pool = &sync.Pool{New: func() any {
	return &CommandSlice{s: make([]string, 0, 2), l: -1}
}}

type CommandSlice struct {
	s []string
	l int32
}

func get() *CommandSlice {
	return pool.Get().(*CommandSlice)
}

func Put(cs *CommandSlice) {
	clear(cs.s)
	cs.s = cs.s[:0]
	cs.l = -1
	pool.Put(cs)
}

type Command struct {
	cs *CommandSlice
}

func Arbitrary(token ...string) Command {
	c := Command{cs: get()}
	c.cs.s = append(c.cs.s, token...)
	return c
}

func (c Command) Args(args ...string) Command {
	c.cs.s = append(c.cs.s, args...)
	return c
}

func (c Command) Build() Command {
	if c.cs.l != -1 {
		panic("a command should not be built twice")
	}
	c.cs.l = int32(len(c.cs.s))
	return c
}

func (c Command) Commands() []string { return c.cs.s }

func Do(send func([]string) error, key, value string) error {
	c := Arbitrary("SET", key).Args(value).Build()
	err := send(c.Commands())
	Put(c.cs)
	return err
}
