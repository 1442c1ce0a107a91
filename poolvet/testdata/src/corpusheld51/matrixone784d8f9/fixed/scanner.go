// Source: https://github.com/matrixorigin/matrixone/pull/22679
// (commit 784d8f952550e34411dde4909d282227f1fe08b5, "fix scanner pool
// consuming large memory").
//
// Bug: the MySQL dialect parser takes its *Scanner from a sync.Pool
// (NewScanner) and puts it back with PutScanner after parsing. A scanner
// keeps the SQL text (buf) and a bytes.Buffer (strBuilder) that grows with
// the string literals it scanned; setSql only truncates the builder. After a
// multi-megabyte statement (a large INSERT ... VALUES) the scanner went back
// into the pool unconditionally, keeping the whole SQL string and the grown
// builder alive, and the scanner pool consumed large amounts of memory.
//
// Fix: PutScanner resets the scanner and, when len(buf) exceeds
// maxPoolSQLSize (1 MiB), drops buf and strBuilder and does not pool it.
//
// Domain note: MatrixOne (a Go HTAP/analytics database) is outside the
// projects named in the brief; used because the listed ones ran dry.
//
// Check: unbounded (scannerPool.Put in PutScanner pools a scanner whose SQL
// text and builder are of unbounded size)
package fixed

import (
	"bytes"
	"sync"
)

type DialectType int

const MYSQL DialectType = 1

// maxPoolSQLSize is the size threshold beyond which a scanner will not be kept
// in the pool and large fields will be cleared to release memory.
const maxPoolSQLSize = 1 << 20 // 1 MiB

const (
	eofChar   = 0x100
	LEX_ERROR = 57346
	STRING    = 57348
)

var scannerPool = sync.Pool{
	New: func() any {
		return &Scanner{}
	},
}

type Scanner struct {
	LastToken           string
	LastError           error
	posVarIndex         int
	dialectType         DialectType
	MysqlSpecialComment *Scanner

	CommentFlag bool
	Pos         int
	Line        int
	Col         int
	PrePos      int
	buf         string

	strBuilder bytes.Buffer
}

func (s *Scanner) reset(clearLargeOnly bool, oversized bool) {
	// Reset light-weight state shared by both setSql and PutScanner
	s.LastToken = ""
	s.LastError = nil
	s.posVarIndex = 0
	s.MysqlSpecialComment = nil
	s.CommentFlag = false
	s.Pos = 0
	s.Line = 0
	s.Col = 0
	s.PrePos = 0

	if clearLargeOnly {
		if oversized {
			// Oversized by SQL size: drop both to avoid retaining huge memory.
			s.buf = ""
			s.strBuilder = bytes.Buffer{}
		}
	}
}

func (s *Scanner) setSql(sql string) {
	// This is a mysql scanner, so we set the dialect type to mysql
	s.dialectType = MYSQL
	// Reset transient fields but do not aggressively clear buffers here so that
	// small capacities can be reused.
	s.reset(false, false)
	s.buf = sql
	// Reset length to 0; this keeps capacity for small cases.
	s.strBuilder.Reset()
}

func NewScanner(dialectType DialectType, sql string) *Scanner {
	scanner := scannerPool.Get().(*Scanner)
	scanner.setSql(sql)
	return scanner
}

func PutScanner(scanner *Scanner) {
	oversized := len(scanner.buf) > maxPoolSQLSize
	// Reset shared state. Only clear buffers/strings when oversized.
	scanner.reset(true, oversized)
	if oversized {
		return
	}
	scannerPool.Put(scanner)
}

func (s *Scanner) cur() uint16 {
	if s.Pos >= len(s.buf) {
		return eofChar
	}
	return uint16(s.buf[s.Pos])
}

func (s *Scanner) inc() {
	if s.Pos >= len(s.buf) {
		return
	}
	if s.buf[s.Pos] == '\n' {
		s.Line++
		s.Col = 0
	}
	s.Pos++
	s.Col++
}

// scanString scans a quoted string literal into strBuilder.
func (s *Scanner) scanString(delim uint16, typ int) (int, string) {
	s.strBuilder.Reset()
	for {
		ch := s.cur()
		if ch == eofChar {
			return LEX_ERROR, s.strBuilder.String()
		}
		s.inc()
		if ch == delim {
			if s.cur() != delim {
				break
			}
			s.inc()
		} else if ch == '\\' {
			ch = s.cur()
			if ch == eofChar {
				return LEX_ERROR, s.strBuilder.String()
			}
			s.inc()
		}
		s.strBuilder.WriteByte(byte(ch))
	}
	return typ, s.strBuilder.String()
}

// Scan returns the next string literal token of the statement (trimmed).
func (s *Scanner) Scan() (int, string) {
	for {
		switch ch := s.cur(); {
		case ch == eofChar:
			return 0, ""
		case ch == '\'' || ch == '"':
			s.inc()
			return s.scanString(ch, STRING)
		default:
			s.inc()
		}
	}
}

// Parse collects the string literals of sql.
func Parse(sql string) ([]string, error) {
	scanner := NewScanner(MYSQL, sql)
	defer PutScanner(scanner)

	var out []string
	for {
		tok, val := scanner.Scan()
		switch tok {
		case 0:
			return out, nil
		case LEX_ERROR:
			scanner.LastError = errSyntax
			return nil, scanner.LastError
		}
		out = append(out, val)
	}
}

type syntaxError struct{}

func (syntaxError) Error() string { return "syntax error" }

var errSyntax error = syntaxError{}
