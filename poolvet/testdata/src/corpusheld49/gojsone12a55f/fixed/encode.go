// Source: https://github.com/goccy/go-json/issues/63, fixed by commit
// https://github.com/goccy/go-json/commit/e12a55fd1ea1f91f6ce2fa8f07eedfee2b215079
// ("Clean encode context before putting to pool", PR
// https://github.com/goccy/go-json/pull/65). go-json compiles each type into
// opcodes run by an encoder VM; outside the template/parser list of the brief
// proper, but a compiler/VM of the same kind.
//
// Bug: each compiled type has a sync.Pool of encodeRuntimeContext. The VM
// appends unsafe pointers it must keep alive while it runs (map iterators,
// interface values, map position slices) to ctx.keepRefs. After the run the
// context is put back into the pool as it is: keepRefs still holds those
// pointers (init only truncates the slice when the context is taken again),
// so the pooled context keeps the last run's objects reachable, and the
// garbage collector later found invalid pointers in them and crashed.
// Fix: encodeRuntimeContext.done() nils every keepRefs entry, and encode calls
// ctx.done() before each codeSet.ctx.Put(ctx).
//
// Check: noreset (the contexts are put back with keepRefs of the last run)
package fixed

import (
	"reflect"
	"strconv"
	"sync"
	"unsafe"
)

type opType int

const (
	opEnd opType = iota
	opInt
	opString
	opInterface
	opMapHead
)

type opcode struct {
	op   opType
	idx  int
	next *opcode
}

func (c *opcode) totalLength() int {
	n := 0
	for code := c; code != nil; code = code.next {
		n++
	}
	return n
}

type encodeRuntimeContext struct {
	ptrs     []uintptr
	keepRefs []unsafe.Pointer
}

func (c *encodeRuntimeContext) init(p uintptr) {
	c.ptrs[0] = p
	c.keepRefs = c.keepRefs[:0]
}

// done cleans c.keepRefs, so it can be garbage collected.
//
// It is important to call c.done() once it's not used anymore. Otherwise,
// c.keepRefs maybe kept longer than expected, so if the garbage collector
// run, it will see an invalid pointer.
func (c *encodeRuntimeContext) done() {
	for i := range c.keepRefs {
		c.keepRefs[i] = nil
	}
}

type opcodeMap struct {
	sync.Map
}

type opcodeSet struct {
	codeIndent *opcode
	code       *opcode
	ctx        sync.Pool
}

func (m *opcodeMap) get(k uintptr) *opcodeSet {
	if v, ok := m.Load(k); ok {
		return v.(*opcodeSet)
	}
	return nil
}

func (m *opcodeMap) set(k uintptr, op *opcodeSet) {
	m.Store(k, op)
}

var cachedOpcode opcodeMap

type Encoder struct {
	buf           []byte
	enabledIndent bool
}

func (e *Encoder) compileHead(typ reflect.Type) (*opcode, error) {
	var op opType
	switch typ.Kind() {
	case reflect.Int:
		op = opInt
	case reflect.String:
		op = opString
	case reflect.Interface:
		op = opInterface
	case reflect.Map:
		op = opMapHead
	default:
		op = opInterface
	}
	return &opcode{op: op, next: &opcode{op: opEnd}}, nil
}

// run is the encoder VM; value holds the value whose address is ctx.ptrs[0].
func (e *Encoder) run(ctx *encodeRuntimeContext, code *opcode, value interface{}) error {
	for {
		switch code.op {
		case opEnd:
			return nil
		case opInt:
			e.buf = strconv.AppendInt(e.buf, reflect.ValueOf(value).Int(), 10)
			e.buf = append(e.buf, ',')
		case opString:
			e.buf = strconv.AppendQuote(e.buf, reflect.ValueOf(value).String())
			e.buf = append(e.buf, ',')
		case opInterface:
			v := value
			ctx.keepRefs = append(ctx.keepRefs, unsafe.Pointer(&v))
			e.buf = append(e.buf, '"')
			e.buf = append(e.buf, reflect.TypeOf(v).String()...)
			e.buf = append(e.buf, '"', ',')
		case opMapHead:
			rv := reflect.ValueOf(value)
			iter := rv.MapRange()
			ctx.keepRefs = append(ctx.keepRefs, unsafe.Pointer(iter))
			pos := make([]int, 0, rv.Len())
			pos = append(pos, len(e.buf))
			posPtr := unsafe.Pointer(&pos)
			ctx.keepRefs = append(ctx.keepRefs, posPtr)
			e.buf = append(e.buf, '{')
			for iter.Next() {
				e.buf = strconv.AppendQuote(e.buf, iter.Key().String())
				e.buf = append(e.buf, ':', '0', ',')
			}
			e.buf = append(e.buf, '}', ',')
		}
		code = code.next
	}
}

func (e *Encoder) encode(v interface{}) error {
	if v == nil {
		e.buf = append(e.buf, "null,"...)
		return nil
	}
	typ := reflect.TypeOf(v)
	typeptr := reflect.ValueOf(typ).Pointer()
	p := uintptr(0)
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Ptr || rv.Kind() == reflect.Map {
		p = rv.Pointer()
	}
	if codeSet := cachedOpcode.get(typeptr); codeSet != nil {
		var code *opcode
		if e.enabledIndent {
			code = codeSet.codeIndent
		} else {
			code = codeSet.code
		}
		ctx := codeSet.ctx.Get().(*encodeRuntimeContext)
		ctx.init(p)
		err := e.run(ctx, code, v)
		ctx.done()
		codeSet.ctx.Put(ctx)
		return err
	}

	codeIndent, err := e.compileHead(typ)
	if err != nil {
		return err
	}
	code, err := e.compileHead(typ)
	if err != nil {
		return err
	}
	codeLength := code.totalLength()
	codeSet := &opcodeSet{
		codeIndent: codeIndent,
		code:       code,
		ctx: sync.Pool{
			New: func() interface{} {
				return &encodeRuntimeContext{
					ptrs:     make([]uintptr, codeLength),
					keepRefs: make([]unsafe.Pointer, 8),
				}
			},
		},
	}
	cachedOpcode.set(typeptr, codeSet)
	ctx := codeSet.ctx.Get().(*encodeRuntimeContext)
	ctx.init(p)

	var c *opcode
	if e.enabledIndent {
		c = codeIndent
	} else {
		c = code
	}

	err = e.run(ctx, c, v)
	ctx.done()
	codeSet.ctx.Put(ctx)
	return err
}

// Marshal returns the JSON encoding of v.
func Marshal(v interface{}) ([]byte, error) {
	e := &Encoder{}
	if err := e.encode(v); err != nil {
		return nil, err
	}
	copied := make([]byte, len(e.buf)-1)
	copy(copied, e.buf)
	return copied, nil
}
