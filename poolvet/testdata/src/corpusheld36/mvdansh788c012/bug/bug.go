// Package bug reproduces the shape of mvdan/sh commit 788c0121
// (https://github.com/mvdan/sh/commit/788c01216c80ed3681ceafdf4c63fdc93dddf5ee,
// "parser: properly set slice length to 0 in reset()"): the shell parser used
// by shfmt recycles parser objects through a sync.Pool and clears them with
// reset() when they are taken out again. reset() wrote
// p.heredocs = p.heredocs[:], which keeps the old length, so heredoc redirects
// still pending from a previous (failed) parse were carried into the next
// Parse call and their bodies were read from the wrong source.
//
// Check: noreset (the line in reset() that leaves the pending heredocs in
// place).
package bug

import (
	"errors"
	"strings"
	"sync"
)

type Redirect struct {
	Op   string
	Word string
	Hdoc string
}

type File struct {
	Name  string
	Stmts []string
	Redir []*Redirect
}

type parser struct {
	src  []byte
	f    *File
	mode uint

	spaced, newLine bool

	err  error
	npos int

	// list of pending heredoc bodies
	buriedHdocs int
	heredocs    []*Redirect
}

var parserFree = sync.Pool{
	New: func() interface{} {
		return &parser{}
	},
}

func (p *parser) reset() {
	p.spaced, p.newLine = false, false
	p.err = nil
	p.npos = 0
	p.heredocs = p.heredocs[:] // want `noreset`
	p.buriedHdocs = 0
}

func (p *parser) line() (string, bool) {
	if p.npos >= len(p.src) {
		return "", false
	}
	rest := string(p.src[p.npos:])
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		p.npos += i + 1
		return rest[:i], true
	}
	p.npos = len(p.src)
	return rest, true
}

func (p *parser) doHeredocs() {
	hdocs := p.heredocs[p.buriedHdocs:]
	p.heredocs = p.heredocs[:p.buriedHdocs]
	for _, r := range hdocs {
		var body []string
		for {
			l, ok := p.line()
			if !ok {
				p.err = errors.New("unclosed here-document " + r.Word)
				return
			}
			if l == r.Word {
				break
			}
			body = append(body, l)
		}
		r.Hdoc = strings.Join(body, "\n")
	}
}

func (p *parser) stmts() []string {
	var out []string
	for p.err == nil {
		l, ok := p.line()
		if !ok {
			break
		}
		if i := strings.Index(l, "<<"); i >= 0 {
			r := &Redirect{Op: "<<", Word: strings.TrimSpace(l[i+2:])}
			if r.Word == "" {
				p.err = errors.New("heredoc without a word")
				break
			}
			p.heredocs = append(p.heredocs, r)
			p.f.Redir = append(p.f.Redir, r)
			l = l[:i]
		}
		if strings.Count(l, "'")%2 != 0 {
			p.err = errors.New("reached EOF without closing quote")
			break
		}
		out = append(out, l)
		if len(p.heredocs) > p.buriedHdocs {
			p.doHeredocs()
		}
	}
	return out
}

// Parse reads and parses a shell program with an optional name.
func Parse(src []byte, name string, mode uint) (*File, error) {
	p := parserFree.Get().(*parser)
	p.reset()
	p.f = &File{Name: name}
	p.src, p.mode = src, mode
	p.f.Stmts = p.stmts()
	if p.err == nil {
		p.doHeredocs()
	}
	f, err := p.f, p.err
	parserFree.Put(p)
	return f, err
}
