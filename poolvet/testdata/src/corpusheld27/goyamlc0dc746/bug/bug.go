// Package bug reproduces the shape of goccy/go-yaml commit c0dc746
// (https://github.com/goccy/go-yaml/commit/c0dc746a3ebec0712023d1603e597ef8d5940d80,
// "Fix release sequence for scanner.Context"): Scanner.Scan takes a scanning Context
// from a sync.Pool, scans the source into ctx.tokens, calls ctx.release() (which puts
// the Context back into the pool) and then returns ctx.tokens. The returned token
// slice belongs to the released Context; the next Scan that gets the same Context
// truncates and appends to it, overwriting the tokens the caller is still holding.
// The fix defers release and returns a copy of the tokens.
//
// Check: useafterput (a field of the Context is returned after release put the
// Context back into the pool; report at the return).
package bug

import (
	"io"
	"sync"
)

type TokenType int

const (
	StringType TokenType = iota
	MappingValueType
	SequenceEntryType
)

type Token struct {
	Type  TokenType
	Value string
	Pos   int
}

type Tokens []*Token

func (t *Tokens) Add(tk *Token) { *t = append(*t, tk) }

// Context context at scanning
type Context struct {
	idx          int
	size         int
	src          []rune
	buf          []rune
	tokens       Tokens
	isSingleLine bool
}

var ctxPool = sync.Pool{
	New: func() interface{} {
		return createContext()
	},
}

func createContext() *Context {
	return &Context{
		tokens:       Tokens{},
		isSingleLine: true,
	}
}

func newContext(src []rune) *Context {
	ctx := ctxPool.Get().(*Context)
	ctx.reset(src)
	return ctx
}

func (c *Context) release() {
	ctxPool.Put(c)
}

func (c *Context) reset(src []rune) {
	c.idx = 0
	c.size = len(src)
	c.src = src
	c.tokens = c.tokens[:0]
	c.buf = c.buf[:0]
	c.isSingleLine = true
}

func (c *Context) addBuf(r rune) { c.buf = append(c.buf, r) }

func (c *Context) addToken(tk *Token) {
	if tk == nil {
		return
	}
	c.tokens.Add(tk)
}

func (c *Context) flush(pos int) {
	if len(c.buf) == 0 {
		return
	}
	c.addToken(&Token{Type: StringType, Value: string(c.buf), Pos: pos})
	c.buf = c.buf[:0]
}

type Scanner struct {
	source     []rune
	sourcePos  int
	sourceSize int
}

func (s *Scanner) Init(text string) {
	s.source = []rune(text)
	s.sourcePos = 0
	s.sourceSize = len(s.source)
}

func (s *Scanner) scan(ctx *Context) int {
	for ctx.idx = 0; ctx.idx < ctx.size; ctx.idx++ {
		c := ctx.src[ctx.idx]
		switch c {
		case ':':
			ctx.flush(ctx.idx)
			ctx.addToken(&Token{Type: MappingValueType, Value: ":", Pos: ctx.idx})
		case '-':
			ctx.flush(ctx.idx)
			ctx.addToken(&Token{Type: SequenceEntryType, Value: "-", Pos: ctx.idx})
		case ' ', '\t':
			ctx.flush(ctx.idx)
		case '\n':
			ctx.flush(ctx.idx)
			return ctx.idx + 1
		default:
			ctx.addBuf(c)
		}
	}
	ctx.flush(ctx.idx)
	return ctx.idx
}

// Scan scans the next token and returns the token collection. The source end is
// indicated by io.EOF.
func (s *Scanner) Scan() (Tokens, error) {
	if s.sourcePos >= s.sourceSize {
		return nil, io.EOF
	}
	ctx := newContext(s.source[s.sourcePos:])
	progress := s.scan(ctx)
	s.sourcePos += progress
	ctx.release()
	return ctx.tokens, nil // want `useafterput`
}
