package noreset

import "sync"

// A lexer kept as a field of a pooled parser: its reset sets several
// fields but not identDot, a flag its scanning code sets and a function
// given the lexer tests (pingcap/tidb#45903). The lexer has no Put of its
// own, so the reset is where it is reported.
type sqlLexer struct {
	src      string
	pos      int
	errs     []error
	lastKw   int
	identDot bool
}

func (l *sqlLexer) reset(src string) { // want `reset leaves the field identDot of sqlLexer as the last user set it, and scanNumber reads it before writing it`
	l.src = src
	l.pos = 0
	l.errs = l.errs[:0]
	l.lastKw = 0
}

func scanNumber(l *sqlLexer) string {
	if l.identDot {
		return "ident"
	}
	return "number"
}

func (l *sqlLexer) lex() string {
	if l.pos >= len(l.src) {
		return ""
	}
	l.pos++
	l.identDot = l.pos < len(l.src) && l.src[l.pos] == '.'
	return scanNumber(l)
}

type sqlParser struct {
	lexer sqlLexer
	out   []string
}

var sqlParsers = sync.Pool{New: func() any { return new(sqlParser) }}

func parseSQL(src string) int {
	p := sqlParsers.Get().(*sqlParser)
	p.out = p.out[:0]
	p.lexer.reset(src)
	for t := p.lexer.lex(); t != ""; t = p.lexer.lex() {
		p.out = append(p.out, t)
	}
	n := len(p.out)
	p.out = p.out[:0]
	sqlParsers.Put(p)
	return n
}

// The fix: the reset clears the flag too.
type sqlLexer2 struct {
	src      string
	pos      int
	identDot bool
}

func (l *sqlLexer2) reset(src string) {
	l.src = src
	l.pos = 0
	l.identDot = false
}

func scanNumber2(l *sqlLexer2) bool { return l.identDot }

func (l *sqlLexer2) lex() bool {
	l.pos++
	l.identDot = l.pos < len(l.src) && l.src[l.pos] == '.'
	return scanNumber2(l)
}

type sqlParser2 struct{ lexer sqlLexer2 }

var sqlParsers2 = sync.Pool{New: func() any { return new(sqlParser2) }}

func parseSQL2(src string) bool {
	p := sqlParsers2.Get().(*sqlParser2)
	p.lexer.reset(src)
	ok := p.lexer.lex()
	sqlParsers2.Put(p)
	return ok
}

// A lifecycle flag the reset itself tests is kept on purpose.
type zDecoder struct {
	src    []byte
	closed bool
}

func (d *zDecoder) Reset(src []byte) bool {
	if d.closed {
		return false
	}
	d.src = src
	return true
}

func (d *zDecoder) Read() int {
	if d.closed {
		return 0
	}
	return len(d.src)
}

func (d *zDecoder) Close() { d.closed = true }

var zDecoders = sync.Pool{New: func() any { return new(zDecoder) }}

func decodeZ(src []byte) int {
	d := zDecoders.Get().(*zDecoder)
	d.Reset(src)
	n := d.Read()
	d.Reset(nil)
	zDecoders.Put(d)
	return n
}

// The same through a pointer the pooled object owns: echo's Context keeps
// a *Response whose reset forgot the byte counter (labstack/echo#86).
type webResponse struct {
	w         func([]byte) (int, error)
	status    int
	committed bool
	size      int64
}

func (r *webResponse) reset(w func([]byte) (int, error)) { // want `reset leaves the field size of webResponse as the last user set it, and Write reads it before writing it`
	r.w = w
	r.status = 200
	r.committed = false
}

func (r *webResponse) Write(b []byte) (int, error) {
	n, err := r.w(b)
	r.size += int64(n)
	return n, err
}

type webContext struct {
	response *webResponse
}

var webContexts = sync.Pool{New: func() any { return &webContext{response: new(webResponse)} }}

func serveWeb(w func([]byte) (int, error), body []byte) {
	c := webContexts.Get().(*webContext)
	c.response.reset(w)
	c.response.Write(body)
	webContexts.Put(c)
}
