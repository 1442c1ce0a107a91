// Package bug reproduces the shape of mvdan/sh commit afe1e13a
// (https://github.com/mvdan/sh/commit/afe1e13a891177ccde7d885a39f46503c19aca8a,
// "syntax: fix data race found by -race"): the shell parser behind shfmt kept
// its parser objects in a sync.Pool. Parse handed the parser back to the pool
// and only afterwards read the parsed file and the error out of it, so a
// concurrent Parse could already have taken the same parser and overwritten
// both fields.
//
// Check: useafterput (the return that reads p.f and p.err after the Put).
package bug

import (
	"bytes"
	"errors"
	"sync"
)

type File struct {
	Name  string
	Lines []int
	Stmts []string
}

type parser struct {
	src  []byte
	f    *File
	mode uint

	err error
	pos int

	heredocs  []string
	helperBuf *bytes.Buffer
}

var parserFree = sync.Pool{
	New: func() interface{} {
		return &parser{helperBuf: new(bytes.Buffer)}
	},
}

func (p *parser) reset() {
	p.err = nil
	p.pos = 0
	p.heredocs = p.heredocs[:0]
}

func (p *parser) stmts() []string {
	var out []string
	start := 0
	for i, c := range p.src {
		if c == '\n' || c == ';' {
			if i > start {
				out = append(out, string(p.src[start:i]))
			}
			start = i + 1
			p.f.Lines = append(p.f.Lines, i+1)
		}
	}
	if start < len(p.src) {
		out = append(out, string(p.src[start:]))
	}
	if len(out) == 0 && len(p.src) > 0 {
		p.err = errors.New("no statements")
	}
	return out
}

func (p *parser) doHeredocs() {
	p.heredocs = p.heredocs[:0]
}

// Parse parses a shell program with an optional name.
func Parse(src []byte, name string, mode uint) (*File, error) {
	p := parserFree.Get().(*parser)
	p.reset()
	alloc := &struct {
		f File
		l [16]int
	}{}
	p.f = &alloc.f
	p.f.Name = name
	p.f.Lines = alloc.l[:1]
	p.src, p.mode = src, mode
	p.f.Stmts = p.stmts()
	if p.err == nil {
		p.doHeredocs()
	}
	parserFree.Put(p)
	return p.f, p.err // want `useafterput`
}
