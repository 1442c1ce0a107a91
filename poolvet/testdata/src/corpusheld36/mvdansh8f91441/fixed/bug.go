// Package bug reproduces the shape of mvdan/sh commit 8f91441f
// (https://github.com/mvdan/sh/commit/8f91441faf7ffd18eba514d02f3bbac452302600,
// "printer: properly reset slice length to 0"): shfmt's printer objects live
// in a sync.Pool and are cleared by reset() each time Fprint takes one out.
// reset() wrote p.levelIncs = p.levelIncs[:] and
// p.pendingHdocs = p.pendingHdocs[:], which keep the old length, so the
// indentation history and heredocs still pending from an earlier Fprint
// leaked into the next file being printed.
//
// Check: noreset (the two lines in reset() that leave the slices' contents in
// place). This is the fixed twin: both slices are truncated to length 0.
package bug

import (
	"bufio"
	"io"
	"sync"
)

type Redirect struct {
	Word string
	Hdoc string
}

type Stmt struct {
	Text  string
	Redir *Redirect
	Body  []*Stmt
}

type File struct {
	Stmts []*Stmt
}

type Config struct {
	Spaces int // 0 (default) for tabs, >0 for number of spaces
}

var printerFree = sync.Pool{
	New: func() interface{} {
		return &printer{bufWriter: bufio.NewWriter(nil)}
	},
}

// Fprint pretty-prints the given file to the given writer.
func (c Config) Fprint(w io.Writer, f *File) error {
	p := printerFree.Get().(*printer)
	p.reset()
	p.f, p.c = f, c
	p.bufWriter.Reset(w)
	p.stmts(f.Stmts)
	p.newline()
	err := p.bufWriter.Flush()
	printerFree.Put(p)
	return err
}

type printer struct {
	bufWriter *bufio.Writer

	f *File
	c Config

	wantSpace   bool
	wantNewline bool

	// lastLevel is the last level of indentation that was used.
	lastLevel int
	// level is the current level of indentation.
	level int
	// levelIncs records which indentation level increments actually
	// took place, to revert them once their section ends.
	levelIncs []bool

	// pendingHdocs is the list of pending heredocs to write.
	pendingHdocs []*Redirect
}

func (p *printer) reset() {
	p.wantSpace, p.wantNewline = false, false
	p.lastLevel, p.level = 0, 0
	p.levelIncs = p.levelIncs[:0]
	p.pendingHdocs = p.pendingHdocs[:0]
}

func (p *printer) incLevel() {
	inc := false
	if p.level <= p.lastLevel {
		p.level++
		inc = true
	} else if last := &p.levelIncs[len(p.levelIncs)-1]; *last {
		*last = false
		inc = true
	}
	p.levelIncs = append(p.levelIncs, inc)
}

func (p *printer) decLevel() {
	if p.levelIncs[len(p.levelIncs)-1] {
		p.level--
	}
	p.levelIncs = p.levelIncs[:len(p.levelIncs)-1]
}

func (p *printer) indent() {
	p.lastLevel = p.level
	for i := 0; i < p.level; i++ {
		if p.c.Spaces == 0 {
			p.bufWriter.WriteByte('\t')
			continue
		}
		for j := 0; j < p.c.Spaces; j++ {
			p.bufWriter.WriteByte(' ')
		}
	}
}

func (p *printer) newline() {
	p.wantNewline, p.wantSpace = false, false
	p.bufWriter.WriteByte('\n')
	hdocs := p.pendingHdocs
	p.pendingHdocs = p.pendingHdocs[:0]
	for _, r := range hdocs {
		p.bufWriter.WriteString(r.Hdoc)
		p.bufWriter.WriteString(r.Word)
		p.bufWriter.WriteByte('\n')
	}
}

func (p *printer) stmts(list []*Stmt) {
	for i, s := range list {
		if i > 0 {
			p.newline()
		}
		p.indent()
		p.bufWriter.WriteString(s.Text)
		if s.Redir != nil {
			p.bufWriter.WriteString(" <<" + s.Redir.Word)
			p.pendingHdocs = append(p.pendingHdocs, s.Redir)
		}
		if len(s.Body) > 0 {
			p.bufWriter.WriteString(" {")
			p.incLevel()
			p.newline()
			p.stmts(s.Body)
			p.decLevel()
			p.newline()
			p.indent()
			p.bufWriter.WriteString("}")
		}
	}
}
