// Package bug reproduces the shape of zalando/skipper#3516
// (https://github.com/zalando/skipper/pull/3516, "eskip: reset parser before
// returning to the pool"): parse takes an eskipLexParser from a sync.Pool,
// zeroes it right after Get, and puts it back with a plain deferred Put. The
// idle parser therefore still references the route code it was given and
// the routes, predicates and filters it produced, keeping them alive while
// it sits in the pool; the PR moved the zeroing to just before the Put.
//
// Check: noreset (an object put back still holding the caller's code string,
// stored by lexer.init, and the parsed results). The want is on the deferred
// Put. The return reads the lexer's fields before the deferred Put runs, and
// the next user only zeroes the struct (it never writes into those slices),
// so no useafterput is expected on it.
package bug

import (
	"errors"
	"strings"
	"sync"
)

type Predicate struct {
	Name string
	Args []string
}

type Filter struct {
	Name string
	Args []string
}

type parsedRoute struct {
	id         string
	predicates []*Predicate
	filters    []*Filter
	backend    string
}

const (
	start_document = iota
	start_predicates
	start_filters
)

type eskipLex struct {
	start         int
	code          string
	lastToken     string
	err           error
	initialLength int
	routes        []*parsedRoute
	predicates    []*Predicate
	filters       []*Filter
}

func (l *eskipLex) init(start int, code string) {
	l.start = start
	l.code = code
	l.initialLength = len(code)
}

func parseCall(s string) (string, []string) {
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return s, nil
	}
	var args []string
	for _, a := range strings.Split(s[open+1:len(s)-1], ",") {
		if a = strings.TrimSpace(a); a != "" {
			args = append(args, a)
		}
	}
	return s[:open], args
}

// eskipParserImpl stands in for the generated parser: it drives the lexer
// and leaves its results in the lexer's fields.
type eskipParserImpl struct {
	depth int
}

func (p *eskipParserImpl) Parse(l *eskipLex) {
	p.depth = 0
	switch l.start {
	case start_predicates:
		for _, part := range strings.Split(l.code, "&&") {
			name, args := parseCall(part)
			l.lastToken = name
			l.predicates = append(l.predicates, &Predicate{Name: name, Args: args})
		}
	case start_filters:
		for _, part := range strings.Split(l.code, "->") {
			name, args := parseCall(part)
			l.lastToken = name
			l.filters = append(l.filters, &Filter{Name: name, Args: args})
		}
	default:
		for _, def := range strings.Split(l.code, ";") {
			if strings.TrimSpace(def) == "" {
				continue
			}
			id, body, ok := strings.Cut(def, ":")
			if !ok {
				l.err = errors.New("route without id: " + def)
				return
			}
			r := &parsedRoute{id: strings.TrimSpace(id)}
			parts := strings.Split(body, "->")
			for _, pr := range strings.Split(parts[0], "&&") {
				name, args := parseCall(pr)
				r.predicates = append(r.predicates, &Predicate{Name: name, Args: args})
			}
			for _, f := range parts[1 : len(parts)-1] {
				name, args := parseCall(f)
				r.filters = append(r.filters, &Filter{Name: name, Args: args})
			}
			r.backend = strings.TrimSpace(parts[len(parts)-1])
			l.lastToken = r.backend
			l.routes = append(l.routes, r)
		}
	}
}

type eskipLexParser struct {
	lexer  eskipLex
	parser eskipParserImpl
}

var parserPool sync.Pool

func parseDocument(code string) ([]*parsedRoute, error) {
	routes, _, _, err := parse(start_document, code)
	return routes, err
}

func parsePredicates(code string) ([]*Predicate, error) {
	_, predicates, _, err := parse(start_predicates, code)
	return predicates, err
}

func parseFilters(code string) ([]*Filter, error) {
	_, _, filters, err := parse(start_filters, code)
	return filters, err
}

func parse(start int, code string) ([]*parsedRoute, []*Predicate, []*Filter, error) {
	lp, ok := parserPool.Get().(*eskipLexParser)
	if !ok {
		lp = &eskipLexParser{}
	} else {
		*lp = eskipLexParser{}
	}
	defer parserPool.Put(lp) // want `noreset`

	lexer := &lp.lexer
	lexer.init(start, code)

	lp.parser.Parse(lexer)

	// the caller picks the result it asked for with start
	return lexer.routes, lexer.predicates, lexer.filters, lexer.err
}

// ParsePredicates parses "A() && B(x)".
func ParsePredicates(code string) ([]*Predicate, error) { return parsePredicates(code) }

// ParseFilters parses "f() -> g(1)".
func ParseFilters(code string) ([]*Filter, error) { return parseFilters(code) }

// RouteIDs parses a routing document and returns its route ids.
func RouteIDs(code string) ([]string, error) {
	routes, err := parseDocument(code)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(routes))
	for i, r := range routes {
		ids[i] = r.id
	}
	return ids, nil
}
