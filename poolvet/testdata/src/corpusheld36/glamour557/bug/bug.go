// Package bug reproduces the shape of charmbracelet/glamour#557
// (https://github.com/charmbracelet/glamour/pull/557; the crash it causes is
// described in https://github.com/charmbracelet/lipgloss/pull/699): glamour
// renders markdown through a chain of writers, IndentWriter -> PaddingWriter,
// and each of them owns a lipgloss WrapWriter whose ANSI parser comes from a
// sync.Pool and goes back to it in Close. IndentWriter.Close closed the
// downstream writer first (returning its parser to the pool) and only then
// closed its own WrapWriter, which flushes a trailing style reset into the
// downstream writer - straight into the parser that had already been released.
//
// Check: useafterput (the close of the upstream WrapWriter, which writes
// through the downstream writer after that one released its pooled parser).
package bug

import (
	"errors"
	"io"
	"strings"
	"sync"
)

const resetStyle = "\x1b[m"

// Parser is a tiny SGR-tracking ANSI parser.
type Parser struct {
	inCsi   bool
	params  []byte
	handler func(params string)
}

func (p *Parser) Reset() {
	p.inCsi = false
	p.params = p.params[:0]
	p.handler = nil
}

func (p *Parser) Advance(b byte) {
	switch {
	case b == 0x1b:
		p.inCsi = true
		p.params = p.params[:0]
	case p.inCsi && b == '[':
	case p.inCsi && b == 'm':
		p.inCsi = false
		if p.handler != nil {
			p.handler(string(p.params))
		}
	case p.inCsi:
		p.params = append(p.params, b)
	}
}

var parserPool = sync.Pool{
	New: func() any {
		return &Parser{params: make([]byte, 0, 32)}
	},
}

func GetParser() *Parser { return parserPool.Get().(*Parser) }

func PutParser(p *Parser) {
	p.Reset()
	parserPool.Put(p)
}

// WrapWriter keeps track of the current pen so that it can be reset.
type WrapWriter struct {
	w     io.Writer
	p     *Parser
	style string
}

func NewWrapWriter(w io.Writer) *WrapWriter {
	ww := &WrapWriter{w: w}
	ww.p = GetParser()
	ww.p.handler = func(params string) {
		if params == "" || params == "0" {
			ww.style = ""
			return
		}
		ww.style = "\x1b[" + params + "m"
	}
	return ww
}

func (w *WrapWriter) Style() string { return w.style }

func (w *WrapWriter) Write(p []byte) (int, error) {
	for _, b := range p {
		w.p.Advance(b)
		if _, err := w.w.Write([]byte{b}); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Close resets the pen if needed and releases the parser.
func (w *WrapWriter) Close() error {
	if w.style != "" {
		_, _ = io.WriteString(w.w, resetStyle)
	}
	if w.p != nil {
		PutParser(w.p)
		w.p = nil
	}
	return nil
}

// PaddingWriter pads every line to a width.
type PaddingWriter struct {
	Padding int
	w       *WrapWriter
	line    int
}

func NewPaddingWriter(w io.Writer, padding int) *PaddingWriter {
	return &PaddingWriter{Padding: padding, w: NewWrapWriter(w)}
}

func (w *PaddingWriter) Write(p []byte) (int, error) {
	for _, b := range p {
		if b == '\n' && w.line < w.Padding {
			if _, err := io.WriteString(w.w, strings.Repeat(" ", w.Padding-w.line)); err != nil {
				return 0, err
			}
			w.line = 0
		} else if b != '\n' {
			w.line++
		}
		if _, err := w.w.Write([]byte{b}); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func (w *PaddingWriter) Close() error {
	return w.w.Close()
}

// IndentWriter indents every line.
type IndentWriter struct {
	Indent     int
	w          io.Writer
	pw         *WrapWriter
	skipIndent bool
}

func NewIndentWriter(w io.Writer, indent int) *IndentWriter {
	return &IndentWriter{Indent: indent, pw: NewWrapWriter(w), w: w}
}

func (w *IndentWriter) Write(p []byte) (int, error) {
	for _, b := range p {
		if !w.skipIndent {
			if w.pw.Style() != "" {
				_, _ = io.WriteString(w.w, resetStyle)
			}
			if _, err := io.WriteString(w.pw, strings.Repeat(" ", w.Indent)); err != nil {
				return 0, err
			}
			w.skipIndent = true
			if s := w.pw.Style(); s != "" {
				_, _ = io.WriteString(w.w, s)
			}
		}
		if b == '\n' {
			w.skipIndent = false
		}
		if _, err := w.pw.Write([]byte{b}); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Close closes the IndentWriter and the writer below it.
func (w *IndentWriter) Close() error {
	var werr error
	if w, ok := w.w.(io.WriteCloser); ok {
		werr = w.Close()
	}

	return errors.Join(werr, w.pw.Close()) // want `useafterput`
}

// Render writes a block with the given indentation and padding.
func Render(out io.Writer, text string, indent, width int) error {
	pw := NewPaddingWriter(out, width)
	iw := NewIndentWriter(pw, indent)
	if _, err := io.WriteString(iw, text); err != nil {
		return err
	}
	return iw.Close()
}
