// Source: https://github.com/ohler55/ojg/commit/66b95bb0005bdd5daa8f09021f8591d2bd3e6d9d
// ("Pooled parsers should reset the number conversion method", ojg v1.19.1;
// CHANGELOG: "Pooled parsers now reset the number conversion method").
// Domain note: writer A's LLM/AI-tooling domain ran dry; this is a general
// Go JSON library (ohler55/ojg), not on the avoid list.
//
// Bug: oj.Parse takes a *Parser from parserPool and defers
// parserPool.Put(p). Parser.Parse resets the per-call state it knows about
// (cb, resultChan, OnlyOne, stacks), but an ojg.NumConvMethod argument sets
// p.num.Conv and nothing ever sets it back. The parser goes back to the
// pool with the previous caller's conversion method, so a later oj.Parse
// without that option gets big numbers converted to float64/string instead
// of json.Number.
// Fix: Parse (and ParseReader) reset p.num.Conv = ojg.DefaultNumConvMethod
// with the other per-call fields before applying the args.
//
// Check: noreset (at the deferred parserPool.Put in Parse: the parser is put
// back still holding the caller's num.Conv, which Parser.Parse's reset
// forgets)
package bug

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
)

// NumConvMethod specifies a json.Number conversion method.
type NumConvMethod byte

const (
	// NumConvNone leaves a json.Number as is.
	NumConvNone = NumConvMethod(0)

	// NumConvFloat64 convert json.Number to a float64.
	NumConvFloat64 = NumConvMethod('f')

	// NumConvString convert json.Number to a string
	NumConvString = NumConvMethod('s')
)

// DefaultNumConvMethod is the default NumConvMethod for parsing.
var DefaultNumConvMethod = NumConvNone

// Number is used internally by parsers.
type Number struct {
	I      uint64
	Neg    bool
	BigBuf []byte
	Conv   NumConvMethod
}

// Reset the number.
func (n *Number) Reset() {
	n.I = 0
	n.Neg = false
	if 0 < len(n.BigBuf) {
		n.BigBuf = n.BigBuf[:0]
	}
}

// AddDigit to a number.
func (n *Number) AddDigit(b byte) {
	switch {
	case 0 < len(n.BigBuf):
		n.BigBuf = append(n.BigBuf, b)
	case n.I <= 922337203685477580:
		n.I = n.I*10 + uint64(b-'0')
	default:
		n.BigBuf = append(n.BigBuf, strconv.FormatUint(n.I, 10)...)
		n.BigBuf = append(n.BigBuf, b)
	}
}

// AsNum returns the number as best fit.
func (n *Number) AsNum() (num any) {
	if 0 < len(n.BigBuf) {
		switch n.Conv {
		case NumConvFloat64:
			num, _ = json.Number(n.BigBuf).Float64()
		case NumConvString:
			num = json.Number(n.BigBuf).String()
		default:
			num = json.Number(n.BigBuf)
		}
		return
	}
	i := int64(n.I)
	if n.Neg {
		i = -i
	}
	return i
}

// Parser is a reusable JSON parser.
type Parser struct {
	stack      []any
	cb         func(any)
	resultChan chan any
	num        Number
	result     any
	OnlyOne    bool
	Reuse      bool
}

var parserPool = sync.Pool{
	New: func() any {
		return &Parser{}
	},
}

// Parse a JSON string in to simple types. An error is returned if not valid JSON.
func (p *Parser) Parse(buf []byte, args ...any) (any, error) {
	p.cb = nil
	p.resultChan = nil
	p.OnlyOne = true
	for _, a := range args {
		switch ta := a.(type) {
		case func(any):
			p.cb = ta
			p.OnlyOne = false
		case chan any:
			p.resultChan = ta
			p.OnlyOne = false
			p.Reuse = false
		case NumConvMethod:
			p.num.Conv = ta
		default:
			return nil, fmt.Errorf("a %T is not a valid option type", a)
		}
	}
	if p.stack == nil {
		p.stack = make([]any, 0, 32)
	} else {
		p.stack = p.stack[:0]
	}
	p.result = nil
	if err := p.parseBuffer(buf); err != nil {
		return nil, err
	}
	return p.result, nil
}

// parseBuffer handles only integers here, which is where num.Conv matters.
func (p *Parser) parseBuffer(buf []byte) error {
	p.num.Reset()
	for i, b := range buf {
		switch {
		case b == '-' && i == 0:
			p.num.Neg = true
		case '0' <= b && b <= '9':
			p.num.AddDigit(b)
		default:
			return fmt.Errorf("unexpected character '%c' at %d", b, i)
		}
	}
	p.result = p.num.AsNum()
	if p.cb != nil {
		p.cb(p.result)
	}
	if p.resultChan != nil {
		p.resultChan <- p.result
	}
	return nil
}

// Parse JSON into a simple type. Arguments are optional and can be a
// func(any) for callbacks, a chan any for chan based result delivery, or an
// NumConvMethod for converting big numbers.
func Parse(b []byte, args ...any) (n any, err error) {
	p := parserPool.Get().(*Parser)
	defer parserPool.Put(p) // want `noreset`
	return p.Parse(b, args...)
}
