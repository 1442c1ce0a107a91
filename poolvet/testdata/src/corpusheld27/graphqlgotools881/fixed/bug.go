// Package bug reproduces the shape of wundergraph/graphql-go-tools#881
// (https://github.com/wundergraph/graphql-go-tools/pull/881, for
// https://github.com/wundergraph/cosmo/issues/1156): the GraphQL resolver
// parses every subgraph response with an astjson-style Parser taken from a
// package-level ParserPool (a sync.Pool wrapper) and hands all of them back in
// Resolvable.Reset. A parser keeps the value cache it grew while parsing, so
// after one very large response the pool kept a parser holding that much
// memory and the router's heap stayed high. The fix returns a parser only when
// its cache is below a size limit (PutIfSizeLessThan) and drops it otherwise.
//
// Check: unbounded (fixed twin: parsers whose cache grew past the limit are
// dropped; the resolver always applies a limit).
package bug

import "sync"

// Value is one parsed JSON node.
type Value struct {
	kind byte
	s    string
	a    []*Value
}

type cache struct {
	vs []Value
}

func (c *cache) reset() {
	clear(c.vs)
	c.vs = c.vs[:0]
}

func (c *cache) getValue() *Value {
	if cap(c.vs) > len(c.vs) {
		c.vs = c.vs[:len(c.vs)+1]
	} else {
		c.vs = append(c.vs, Value{})
	}
	return &c.vs[len(c.vs)-1]
}

// Parser parses JSON; the values it returns live in its cache until the next
// parse.
type Parser struct {
	b []byte
	c cache
}

// ParseBytes parses data (here: one value per byte, enough to grow the cache).
func (p *Parser) ParseBytes(data []byte) (*Value, error) {
	p.b = append(p.b[:0], data...)
	p.c.reset()
	root := p.c.getValue()
	root.kind = 'a'
	for _, ch := range p.b {
		v := p.c.getValue()
		v.kind = 's'
		v.s = string(ch)
	}
	return root, nil
}

// ParserPool is a pool of parsers.
type ParserPool struct {
	pool sync.Pool
}

func (pp *ParserPool) Get() *Parser {
	v := pp.pool.Get()
	if v == nil {
		return &Parser{}
	}
	return v.(*Parser)
}

// PutIfSizeLessThan returns p to the pool unless its buffers grew past
// maxSize values.
func (pp *ParserPool) PutIfSizeLessThan(p *Parser, maxSize int) {
	if cap(p.c.vs) > maxSize || cap(p.b) > maxSize {
		return
	}
	p.b = p.b[:0]
	p.c.reset()
	pp.pool.Put(p)
}

var parsers = &ParserPool{}

// Resolvable collects the parsed subgraph responses of one request.
type Resolvable struct {
	parsers     []*Parser
	typeNames   [][]byte
	wroteErrors bool
	wroteData   bool
	data        *Value
}

func (r *Resolvable) parseJSON(data []byte) (*Value, error) {
	parser := parsers.Get()
	r.parsers = append(r.parsers, parser)
	return parser.ParseBytes(data)
}

func (r *Resolvable) Reset(maxRecyclableParserSize int) {
	for i := range r.parsers {
		parsers.PutIfSizeLessThan(r.parsers[i], maxRecyclableParserSize)
		r.parsers[i] = nil
	}
	r.parsers = r.parsers[:0]
	r.typeNames = r.typeNames[:0]
	r.wroteErrors = false
	r.wroteData = false
	r.data = nil
}

type tools struct {
	resolvable *Resolvable
}

// defaultMaxRecyclableParserSize applies when no limit is configured.
const defaultMaxRecyclableParserSize = 32 * 1024

type ResolverOptions struct {
	// MaxRecyclableParserSize limits the size of a parser recycled into the
	// pool.
	MaxRecyclableParserSize int
}

type Resolver struct {
	options ResolverOptions
}

func (r *Resolver) maxRecyclableParserSize() int {
	if r.options.MaxRecyclableParserSize > 0 {
		return r.options.MaxRecyclableParserSize
	}
	return defaultMaxRecyclableParserSize
}

func (r *Resolver) getTools() *tools {
	return &tools{resolvable: &Resolvable{}}
}

func (r *Resolver) putTools(t *tools) {
	t.resolvable.Reset(r.maxRecyclableParserSize())
}

// ResolveGraphQLResponse parses the subgraph payloads of one request.
func (r *Resolver) ResolveGraphQLResponse(payloads [][]byte) (int, error) {
	t := r.getTools()
	defer r.putTools(t)
	n := 0
	for _, p := range payloads {
		v, err := t.resolvable.parseJSON(p)
		if err != nil {
			return n, err
		}
		t.resolvable.data = v
		n++
	}
	return n, nil
}
