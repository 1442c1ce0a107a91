// Source: https://github.com/mvdan/sh/commit/8f91441faf7ffd18eba514d02f3bbac452302600
// ("printer: properly reset slice length to 0 ... Like 788c0121, but for
// printer.reset()"), in the shell parser/formatter mvdan/sh.
//
// Bug: Fprint takes a printer from the printerFree sync.Pool and calls
// p.reset() before using it. reset meant to empty levelIncs and pendingHdocs
// but wrote s = s[:], which is s[:len(s)] and keeps every element: a printer
// that comes back from the pool still carries the indentation increments and
// the pending heredocs (with their AST nodes) of the file it printed last.
// Fix: reset truncates both slices with [:0].
//
// Check: noreset (the reset function of the pooled printer does not clear
// levelIncs and pendingHdocs)
package fixed

import (
	"bufio"
	"io"
	"sync"
)

// --- trimmed ast and token packages ---

// Pos is a position in the source.
type Pos int

// Word is a shell word.
type Word struct {
	Lit    string
	ValEnd Pos
}

// End returns the position after the word.
func (w *Word) End() Pos { return w.ValEnd }

// Redirect is a redirection, possibly a heredoc.
type Redirect struct {
	Word *Word
	Hdoc *Word
}

// Stmt is a statement.
type Stmt struct {
	Position Pos
	Args     []*Word
	Redirs   []*Redirect
	Nested   []*Stmt
}

// Comment is a comment.
type Comment struct {
	Hash Pos
	Text string
}

// File is a parsed shell file.
type File struct {
	Name     string
	Stmts    []*Stmt
	Comments []*Comment
	Lines    []int
}

// --- printer/printer.go ---

// Config controls how the printing of an AST node will behave.
type Config struct {
	Spaces int // 0 (default) for tabs, >0 for number of spaces
}

var printerFree = sync.Pool{
	New: func() interface{} {
		return &printer{bufWriter: bufio.NewWriter(nil)}
	},
}

// Fprint "pretty-prints" the given AST file to the given writer.
func (c Config) Fprint(w io.Writer, f *File) error {
	p := printerFree.Get().(*printer)
	p.reset()
	p.f, p.c = f, c
	p.comments = f.Comments
	p.bufWriter.Reset(w)
	p.stmts(f.Stmts)
	p.newline(0)
	err := p.bufWriter.Flush()
	printerFree.Put(p)
	return err
}

const maxPos = Pos(^uint(0) >> 1)

type bufWriter interface {
	WriteByte(byte) error
	WriteString(string) (int, error)
	Reset(io.Writer)
	Flush() error
}

type printer struct {
	bufWriter

	f *File
	c Config

	wantSpace   bool
	wantNewline bool

	commentPadding int

	// nline is the position of the next newline
	nline      Pos
	nlineIndex int

	// lastLevel is the last level of indentation that was used.
	lastLevel int
	// level is the current level of indentation.
	level int
	// levelIncs records which indentation level increments actually
	// took place, to revert them once their section ends.
	levelIncs []bool

	nestedBinary bool

	// comments is the list of pending comments to write.
	comments []*Comment

	// pendingHdocs is the list of pending heredocs to write.
	pendingHdocs []*Redirect
}

func (p *printer) reset() {
	p.wantSpace, p.wantNewline = false, false
	p.commentPadding = 0
	p.nline, p.nlineIndex = 0, 0
	p.lastLevel, p.level = 0, 0
	p.levelIncs = p.levelIncs[:0]
	p.nestedBinary = false
	p.pendingHdocs = p.pendingHdocs[:0]
}

func (p *printer) incLine() {
	p.nlineIndex++
	if p.nlineIndex >= len(p.f.Lines) {
		p.nline = maxPos
	} else {
		p.nline = Pos(p.f.Lines[p.nlineIndex])
	}
}

func (p *printer) incLines(pos Pos) {
	for p.nline < pos {
		p.incLine()
	}
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
		p.WriteByte('\t')
	}
}

func (p *printer) newline(pos Pos) {
	p.wantNewline, p.wantSpace = false, false
	p.WriteByte('\n')
	if pos > p.nline {
		p.incLine()
	}
	hdocs := p.pendingHdocs
	p.pendingHdocs = p.pendingHdocs[:0]
	for _, r := range hdocs {
		p.WriteString(r.Hdoc.Lit)
		p.incLines(r.Hdoc.End() + 1)
		p.WriteString(r.Word.Lit)
		p.WriteByte('\n')
		p.incLine()
		p.wantSpace = false
	}
}

func (p *printer) stmt(s *Stmt) {
	for i, w := range s.Args {
		if i > 0 {
			p.WriteByte(' ')
		}
		p.WriteString(w.Lit)
	}
	for _, r := range s.Redirs {
		p.WriteString(" <<")
		p.WriteString(r.Word.Lit)
		if r.Hdoc != nil {
			p.pendingHdocs = append(p.pendingHdocs, r)
		}
	}
	if len(s.Nested) > 0 {
		p.WriteString(" {")
		p.incLevel()
		p.stmts(s.Nested)
		p.decLevel()
		p.newline(0)
		p.indent()
		p.WriteByte('}')
	}
}

func (p *printer) stmts(stmts []*Stmt) {
	for i, s := range stmts {
		if i > 0 {
			p.newline(s.Position)
		}
		p.indent()
		p.stmt(s)
	}
}
