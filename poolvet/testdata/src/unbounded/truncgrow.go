package unbounded

import "sync"

// A field truncated and grown to what the caller passed
// (p.b = append(p.b[:0], data...)) keeps the capacity of the largest
// input: a pooled parser put back as it is pins it
// (wundergraph/graphql-go-tools#881).
type tgParser struct {
	b []byte
}

func (p *tgParser) Parse(data []byte) int {
	p.b = append(p.b[:0], data...)
	return len(p.b)
}

var tgPool = sync.Pool{New: func() any { return new(tgParser) }}

func tgParse(data []byte) int {
	p := tgPool.Get().(*tgParser)
	n := p.Parse(data)
	p.b = p.b[:0]
	tgPool.Put(p) // want `p \(\*tgParser\) is put into the pool without a capacity check, and its field b grows without bound \(Parse appends to it\)`
	return n
}

// Bounded: silent.
type tgParser2 struct {
	b []byte
}

func (p *tgParser2) Parse(data []byte) int {
	p.b = append(p.b[:0], data...)
	return len(p.b)
}

var tgPool2 = sync.Pool{New: func() any { return new(tgParser2) }}

func tgParse2(data []byte) int {
	p := tgPool2.Get().(*tgParser2)
	n := p.Parse(data)
	if cap(p.b) <= 64<<10 {
		p.b = p.b[:0]
		tgPool2.Put(p)
	}
	return n
}
