// Source: https://github.com/ohler55/ojg/commit/a5004a406ad789cd1f8df4822f80ccc08d38e416
// ("Fix parser reuse for callbacks and channels", ojg v1.12.11; CHANGELOG:
// "Parser reuse was no resetting callback and channels. It does now.").
// Domain note: writer A's LLM/AI-tooling domain ran dry; this is a general
// Go JSON library (ohler55/ojg), not on the avoid list.
//
// Bug: oj.Parse takes a *Parser from parserPool and defers
// parserPool.Put(p). Parser.Parse only assigns p.cb / p.resultChan when the
// caller passes a callback or channel, and only sets OnlyOne back to true
// when both are nil; it never clears them. A parser that was used with a
// callback or a result channel goes back to the pool still holding them, so
// the next plain oj.Parse(b) on that parser delivers its results to the
// previous caller's callback/channel (blocking on a channel nobody reads)
// and returns nil instead of the value.
// Fix: Parse and ParseReader start with p.cb = nil; p.resultChan = nil;
// p.OnlyOne = true before applying the args.
//
// Check: noreset (at the deferred parserPool.Put in Parse: the parser is put
// back with the previous caller's cb/resultChan, which Parser.Parse never
// clears)
package fixed

import (
	"fmt"
	"strconv"
	"sync"
)

// Parser is a reusable JSON parser. It can be reused for multiple parsings
// which allows buffer reuse for a performance advantage.
type Parser struct {
	tmp        []byte // used for numbers and strings
	stack      []interface{}
	cb         func(interface{}) bool
	resultChan chan interface{}
	result     interface{}
	OnlyOne    bool

	// Reuse maps. Previously returned maps will no longer be valid or rather
	// could be modified during parsing.
	Reuse bool
}

var parserPool = sync.Pool{
	New: func() interface{} {
		return &Parser{}
	},
}

// Parse a JSON string in to simple types. An error is returned if not valid JSON.
func (p *Parser) Parse(buf []byte, args ...interface{}) (interface{}, error) {
	p.cb = nil
	p.resultChan = nil
	p.OnlyOne = true
	for _, a := range args {
		switch ta := a.(type) {
		case func(interface{}) bool:
			p.cb = ta
			p.OnlyOne = false
		case chan interface{}:
			p.resultChan = ta
			p.OnlyOne = false
			p.Reuse = false
		default:
			return nil, fmt.Errorf("a %T is not a valid option type", a)
		}
	}
	if p.stack == nil {
		p.stack = make([]interface{}, 0, 32)
		p.tmp = make([]byte, 0, 32)
	} else {
		p.stack = p.stack[:0]
		p.tmp = p.tmp[:0]
	}
	p.result = nil
	err := p.parseBuffer(buf)
	p.stack = p.stack[:cap(p.stack)]
	for i := len(p.stack) - 1; 0 <= i; i-- {
		p.stack[i] = nil
	}
	p.stack = p.stack[:0]

	return p.result, err
}

// parseBuffer handles a sequence of whitespace separated integers, which is
// enough to show how results are delivered.
func (p *Parser) parseBuffer(buf []byte) error {
	for i := 0; i <= len(buf); i++ {
		if i < len(buf) && '0' <= buf[i] && buf[i] <= '9' {
			p.tmp = append(p.tmp, buf[i])
			continue
		}
		if i < len(buf) && buf[i] != ' ' && buf[i] != '\n' {
			return fmt.Errorf("unexpected character '%c' at %d", buf[i], i)
		}
		if len(p.tmp) == 0 {
			continue
		}
		n, err := strconv.ParseInt(string(p.tmp), 10, 64)
		if err != nil {
			return err
		}
		p.tmp = p.tmp[:0]
		p.stack = append(p.stack[:0], n)
		if p.cb == nil && p.resultChan == nil {
			p.result = p.stack[0]
		} else {
			if p.cb != nil {
				p.cb(p.stack[0])
			}
			if p.resultChan != nil {
				p.resultChan <- p.stack[0]
			}
		}
		if p.OnlyOne {
			for ; i < len(buf); i++ {
				if buf[i] != ' ' && buf[i] != '\n' {
					return fmt.Errorf("extra characters after close at %d", i)
				}
			}
			return nil
		}
	}
	return nil
}

// Parse JSON into a simple type. Arguments are optional and can be a
// func(interface{}) bool for callbacks, or a chan interface{} for chan based
// result delivery.
//
// A func argument is the callback for the parser if processing multiple
// JSONs. If no callback function is provided the processing is limited to
// only one JSON.
//
// A chan argument will be used to deliver parse results.
func Parse(b []byte, args ...interface{}) (n interface{}, err error) {
	p := parserPool.Get().(*Parser)
	defer parserPool.Put(p)
	return p.Parse(b, args...)
}
