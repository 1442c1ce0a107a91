// Source: https://github.com/pingcap/tidb/issues/45898 ("parser: unexpected
// `unknown 1 in where clause` error"), fixed by
// https://github.com/pingcap/tidb/pull/45903 ("parser: reset
// `lexer.identifierDot` correctly when reusing parsers").
//
// Bug: TiDB sessions parse SQL with parsers taken from a sync.Pool
// (session.ParseSQL: parserPool.Get, defer parserPool.Put). Parser.ParseSQL
// reuses the pooled parser's Scanner after Scanner.reset(sql), but reset does
// not clear identifierDot, the flag that says the previous identifier was
// followed by '.', so that a number after it is scanned as an identifier
// (t.1 is column "1" of t). A statement that fails to parse right after
// "a." leaves the flag set in the pooled parser, and the next statement
// parsed with it reads its first number as a column name: "select count(1)
// from t" fails with "Unknown column '1'". The reporter: "If we allocate a new
// Parser each time, then it can pass this test."
// Fix: Scanner.reset sets s.identifierDot = false.
//
// Check: noreset (Scanner.reset, the reset of the pooled parser's lexer,
// forgets identifierDot)
package bug

import (
	"errors"
	"strings"
	"sync"
)

// --- parser/lexer.go (trimmed) ---

// Pos represents the position of a token.
type Pos struct {
	Line   int
	Col    int
	Offset int
}

type reader struct {
	s string
	p Pos
	l int
}

func (r *reader) eof() bool { return r.p.Offset >= r.l }

func (r *reader) peek() byte {
	if r.eof() {
		return 0
	}
	return r.s[r.p.Offset]
}

func (r *reader) inc() {
	r.p.Offset++
	r.p.Col++
}

func (r *reader) pos() Pos { return r.p }

func (r *reader) data(from *Pos) string { return r.s[from.Offset:r.p.Offset] }

func (r *reader) incAsLongAs(fn func(b byte) bool) {
	for !r.eof() && fn(r.peek()) {
		r.inc()
	}
}

const (
	identifier = 57346 + iota
	intLit
	keyword
	invalid
)

// Scanner implements the yyLexer interface.
type Scanner struct {
	r reader

	errs  []error
	warns []error

	stmtStartPos int

	// inBangComment is true if we are inside a `/*! ... */` block.
	inBangComment bool

	lastKeyword int

	// true if a dot follows an identifier
	identifierDot bool
}

// reset resets the sql string to be scanned.
func (s *Scanner) reset(sql string) { // want `noreset`
	s.r = reader{s: sql, p: Pos{Line: 1}, l: len(sql)}
	s.errs = s.errs[:0]
	s.warns = s.warns[:0]
	s.stmtStartPos = 0
	s.inBangComment = false
	s.lastKeyword = 0
}

var keywords = map[string]bool{"select": true, "from": true, "where": true, "count": true}

func isIdentChar(ch byte) bool {
	return ch == '_' || ch == '$' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9'
}

func scanIdentifier(s *Scanner) (int, Pos, string) {
	pos := s.r.pos()
	s.r.incAsLongAs(isIdentChar)
	return identifier, pos, s.r.data(&pos)
}

func startWithNumber(s *Scanner) (tok int, pos Pos, lit string) {
	if s.identifierDot {
		return scanIdentifier(s)
	}
	pos = s.r.pos()
	s.r.incAsLongAs(func(b byte) bool { return b >= '0' && b <= '9' })
	return intLit, pos, s.r.data(&pos)
}

func (s *Scanner) scan() (tok int, pos Pos, lit string) {
	s.r.incAsLongAs(func(b byte) bool { return b == ' ' || b == '\t' || b == '\n' })
	pos = s.r.pos()
	if s.r.eof() {
		return 0, pos, ""
	}
	ch0 := s.r.peek()
	switch {
	case ch0 >= '0' && ch0 <= '9':
		return startWithNumber(s)
	case isIdentChar(ch0):
		return scanIdentifier(s)
	}
	s.r.inc()
	return int(ch0), pos, s.r.data(&pos)
}

// Lex returns a token and stores its text in lit.
func (s *Scanner) Lex() (tok int, lit string) {
	tok, _, lit = s.scan()
	s.lastKeyword = 0
	if tok == identifier && keywords[strings.ToLower(lit)] {
		s.lastKeyword = keyword
		return keyword, lit
	}
	if tok == identifier {
		s.identifierDot = s.r.peek() == '.'
	}
	return tok, lit
}

// --- parser/yy_parser.go (trimmed) ---

// Column is a column reference of a parsed statement.
type Column struct {
	Table, Name string
}

// StmtNode is a parsed statement: the columns it refers to.
type StmtNode struct {
	Text    string
	Columns []Column
	Ints    []string
}

// Parser represents a parser instance. Some temporary objects are stored in it to reduce object allocation during Parse function.
type Parser struct {
	src    string
	lexer  Scanner
	result []StmtNode
}

// New returns a Parser object with default SQL mode.
func New() *Parser {
	return &Parser{}
}

// ParseSQL parses a query string to raw ast.StmtNode.
func (parser *Parser) ParseSQL(sql string) ([]StmtNode, error) {
	parser.src = sql
	parser.result = parser.result[:0]
	parser.lexer.reset(sql)
	stmt := StmtNode{Text: sql}
	var last string
	for {
		tok, lit := parser.lexer.Lex()
		switch tok {
		case 0:
			if last == "." {
				return nil, errors.New("syntax error near " + sql)
			}
			parser.result = append(parser.result, stmt)
			return parser.result, nil
		case identifier:
			if last == "." && len(stmt.Columns) > 0 {
				stmt.Columns[len(stmt.Columns)-1].Table = stmt.Columns[len(stmt.Columns)-1].Name
				stmt.Columns[len(stmt.Columns)-1].Name = lit
			} else {
				stmt.Columns = append(stmt.Columns, Column{Name: lit})
			}
		case intLit:
			stmt.Ints = append(stmt.Ints, lit)
		}
		last = lit
	}
}

// --- session/session.go ---

var parserPool = &sync.Pool{New: func() interface{} { return New() }}

type session struct {
	cache [1]StmtNode
}

func (s *session) ParseSQL(sql string) ([]StmtNode, error) {
	p := parserPool.Get().(*Parser)
	defer parserPool.Put(p)
	tmp, err := p.ParseSQL(sql)
	// The []ast.StmtNode is referenced by the parser, to reuse the parser, make a copy of the result.
	if len(tmp) == 1 {
		s.cache[0] = tmp[0]
		return s.cache[:], err
	}
	res := make([]StmtNode, len(tmp))
	copy(res, tmp)
	return res, err
}
