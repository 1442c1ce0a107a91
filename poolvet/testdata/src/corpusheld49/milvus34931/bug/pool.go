// Source: https://github.com/milvus-io/milvus/issues/34930 (memory leak during
// parse query plan), fixed by https://github.com/milvus-io/milvus/pull/34931
// (backport https://github.com/milvus-io/milvus/pull/34932).
//
// Bug: the plan parser (an ANTLR Go runtime lexer/parser pair) keeps lexers
// and parsers in object pools (github.com/jolestar/go-commons-pool, trimmed
// below). getLexer/getParser add the caller's error listener to the pooled
// object, but putLexer/putParser only clear the input stream before returning
// it, so every parse leaves its errorListener attached: the listener list of
// a pooled lexer/parser grows with every expression parsed, keeps every old
// listener (and the error it recorded) alive, and reports a new syntax error
// to all the stale listeners too.
// Fix: putLexer/putParser call RemoveErrorListeners() before returning the
// object to the pool.
//
// Check: noreset (putLexer and putParser return the lexer/parser to the pool
// with the error listeners of the last parse still attached)
package bug

import (
	"context"
	"sync"
)

// --- trimmed github.com/jolestar/go-commons-pool/v2 ---

// PooledObjectFactory makes new pool objects.
type PooledObjectFactory struct {
	makeObject func(context.Context) (interface{}, error)
}

// NewPooledObjectFactorySimple returns a factory that only knows how to make objects.
func NewPooledObjectFactorySimple(create func(context.Context) (interface{}, error)) *PooledObjectFactory {
	return &PooledObjectFactory{makeObject: create}
}

// ObjectPoolConfig is the configuration of an ObjectPool.
type ObjectPoolConfig struct {
	LIFO     bool
	MaxTotal int
	MaxIdle  int
}

// ObjectPool is a pool of idle objects.
type ObjectPool struct {
	mu      sync.Mutex
	idle    []interface{}
	factory *PooledObjectFactory
	config  *ObjectPoolConfig
}

// NewObjectPool creates a new pool.
func NewObjectPool(ctx context.Context, factory *PooledObjectFactory, config *ObjectPoolConfig) *ObjectPool {
	return &ObjectPool{factory: factory, config: config}
}

// BorrowObject takes an idle object from the pool or makes a new one.
func (p *ObjectPool) BorrowObject(ctx context.Context) (interface{}, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		obj := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return obj, nil
	}
	p.mu.Unlock()
	return p.factory.makeObject(ctx)
}

// ReturnObject gives an object back to the pool.
func (p *ObjectPool) ReturnObject(ctx context.Context, object interface{}) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) >= p.config.MaxIdle {
		return nil
	}
	p.idle = append(p.idle, object)
	return nil
}

// --- trimmed ANTLR runtime and generated PlanLexer/PlanParser ---

// ErrorListener receives syntax errors.
type ErrorListener interface {
	SyntaxError(line, column int, msg string)
}

// BaseRecognizer holds the listeners of a lexer or parser.
type BaseRecognizer struct {
	listeners []ErrorListener
}

// AddErrorListener adds a listener.
func (b *BaseRecognizer) AddErrorListener(listener ErrorListener) {
	b.listeners = append(b.listeners, listener)
}

// RemoveErrorListeners removes all listeners.
func (b *BaseRecognizer) RemoveErrorListeners() {
	b.listeners = make([]ErrorListener, 0)
}

// NotifyErrorListeners reports a syntax error to every listener.
func (b *BaseRecognizer) NotifyErrorListeners(line, column int, msg string) {
	for _, l := range b.listeners {
		l.SyntaxError(line, column, msg)
	}
}

// InputStream is the expression text.
type InputStream struct {
	data []rune
}

// NewInputStream wraps an expression.
func NewInputStream(s string) *InputStream { return &InputStream{data: []rune(s)} }

// PlanLexer is the generated lexer.
type PlanLexer struct {
	BaseRecognizer
	input *InputStream
}

// NewPlanLexer creates a lexer.
func NewPlanLexer(input *InputStream) *PlanLexer { return &PlanLexer{input: input} }

// SetInputStream resets the lexer onto a new input.
func (l *PlanLexer) SetInputStream(input *InputStream) { l.input = input }

// CommonTokenStream buffers the tokens of a lexer.
type CommonTokenStream struct {
	lexer *PlanLexer
}

// NewCommonTokenStream creates a token stream.
func NewCommonTokenStream(lexer *PlanLexer) *CommonTokenStream {
	return &CommonTokenStream{lexer: lexer}
}

// PlanParser is the generated parser.
type PlanParser struct {
	BaseRecognizer
	BuildParseTrees bool
	input           *CommonTokenStream
}

// NewPlanParser creates a parser.
func NewPlanParser(input *CommonTokenStream) *PlanParser { return &PlanParser{input: input} }

// SetInputStream resets the parser onto a new token stream.
func (p *PlanParser) SetInputStream(input *CommonTokenStream) { p.input = input }

// Expr parses an expression.
func (p *PlanParser) Expr() string {
	if p.input == nil || p.input.lexer.input == nil || len(p.input.lexer.input.data) == 0 {
		p.NotifyErrorListeners(1, 0, "empty expression")
		return ""
	}
	return string(p.input.lexer.input.data)
}

// --- internal/parser/planparserv2/pool.go ---

var (
	config = &ObjectPoolConfig{
		LIFO:     true,
		MaxTotal: 64,
		MaxIdle:  64,
	}
	ctx              = context.Background()
	lexerPoolFactory = NewPooledObjectFactorySimple(
		func(context.Context) (interface{}, error) {
			return NewPlanLexer(nil), nil
		})
	lexerPool = NewObjectPool(ctx, lexerPoolFactory, config)

	parserPoolFactory = NewPooledObjectFactorySimple(
		func(context.Context) (interface{}, error) {
			return NewPlanParser(nil), nil
		})
	parserPool = NewObjectPool(ctx, parserPoolFactory, config)
)

func getLexer(stream *InputStream, listeners ...ErrorListener) *PlanLexer {
	cached, _ := lexerPool.BorrowObject(context.Background())
	lexer, ok := cached.(*PlanLexer)
	if !ok {
		lexer = NewPlanLexer(nil)
	}
	for _, listener := range listeners {
		lexer.AddErrorListener(listener)
	}
	lexer.SetInputStream(stream)
	return lexer
}

func getParser(lexer *PlanLexer, listeners ...ErrorListener) *PlanParser {
	tokenStream := NewCommonTokenStream(lexer)
	cached, _ := parserPool.BorrowObject(context.Background())
	parser, ok := cached.(*PlanParser)
	if !ok {
		parser = NewPlanParser(nil)
	}
	for _, listener := range listeners {
		parser.AddErrorListener(listener)
	}
	parser.BuildParseTrees = true
	parser.SetInputStream(tokenStream)
	return parser
}

func putLexer(lexer *PlanLexer) {
	lexer.SetInputStream(nil)
	lexerPool.ReturnObject(context.TODO(), lexer) // want `noreset`
}

func putParser(parser *PlanParser) {
	parser.SetInputStream(nil)
	parserPool.ReturnObject(context.TODO(), parser) // want `noreset`
}

// --- internal/parser/planparserv2/plan_parser_v2.go ---

type errorListener struct {
	err error
}

func (l *errorListener) SyntaxError(line, column int, msg string) {
	l.err = &syntaxError{line: line, column: column, msg: msg}
}

type syntaxError struct {
	line, column int
	msg          string
}

func (e *syntaxError) Error() string { return e.msg }

func handleExpr(exprStr string) interface{} {
	if exprStr == "" {
		return nil
	}

	inputStream := NewInputStream(exprStr)
	errorListener := &errorListener{}

	lexer := getLexer(inputStream, errorListener)
	if errorListener.err != nil {
		return errorListener.err
	}

	parser := getParser(lexer, errorListener)
	if errorListener.err != nil {
		return errorListener.err
	}

	ast := parser.Expr()
	if errorListener.err != nil {
		return errorListener.err
	}

	// lexer & parser won't be used by this thread, can be put into pool.
	putLexer(lexer)
	putParser(parser)

	return ast
}
