package noreset

import "sync"

// A reset that re-slices a field with [:] keeps its length: the pooled
// object keeps every element (mvdan/sh 788c012, 8f91441).

type shParser struct {
	heredocs []*string
	levels   []bool
	scratch  [8]byte
	window   []byte
}

var shParsers = sync.Pool{New: func() any { return new(shParser) }}

func (p *shParser) reset() {
	p.heredocs = p.heredocs[:] // want `heredocs = heredocs\[:\] keeps the slice's length and every element in it`
	p.levels = p.levels[0:]    // want `levels = levels\[:\] keeps the slice's length`
	p.window = p.scratch[:]    // an array made a slice: not a re-slice of the field
}

func parseShell(src string) int {
	p := shParsers.Get().(*shParser)
	p.reset()
	n := len(p.heredocs) + len(src)
	shParsers.Put(p)
	return n
}

// The fix, and a type that no pool holds.
type shPrinter struct{ pending []*string }

var shPrinters = sync.Pool{New: func() any { return new(shPrinter) }}

func (p *shPrinter) reset() {
	clear(p.pending)
	p.pending = p.pending[:0]
}

func printShell() {
	p := shPrinters.Get().(*shPrinter)
	p.reset()
	shPrinters.Put(p)
}

type notPooled struct{ items []*string }

func (n *notPooled) reset() { n.items = n.items[:] }
