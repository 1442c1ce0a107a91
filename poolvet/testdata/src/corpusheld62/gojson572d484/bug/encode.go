// Source: https://github.com/goccy/go-json/commit/572d4842a5ceda940d733181034688dfa0ffca4a
// ("Reset seenPtr", part of https://github.com/goccy/go-json/pull/45).
//
// Bug: every cached type has an opcodeSet whose ctx sync.Pool hands out
// *encodeRuntimeContext values. The VM records each interface pointer it
// walks in ctx.seenPtr to detect cycles. The context went back into the
// pool with seenPtr still filled, and was taken out again without clearing
// it, so the next Marshal of the same value (or any value at the same
// address) failed with "encountered a cycle" because of pointers seen by
// the previous user.
// Fix: add encodeRuntimeContext.reset(), which replaces seenPtr with a new
// map, and call it right after every Get from codeSet.ctx.
// Check: noreset (the Put of the context whose seenPtr still holds the
// previous encode's pointers; the project had no reset function)
package bug

import (
	"fmt"
	"reflect"
	"sync"
	"unsafe"
)

type opType int

const (
	opEnd opType = iota
	opInterface
	opInt
)

type opcode struct {
	op   opType
	idx  int
	typ  reflect.Type
	next *opcode
}

func (c *opcode) length() int {
	n := 0
	for code := c; code != nil; code = code.next {
		n++
	}
	return n
}

type opcodeSet struct {
	code sync.Pool
	ctx  sync.Pool
}

type opcodeMap struct {
	sync.Map
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

type encodeRuntimeContext struct {
	ptrs    []unsafe.Pointer
	seenPtr map[uintptr]struct{}
}

func (c *encodeRuntimeContext) init(p unsafe.Pointer) {
	c.ptrs[0] = p
}

type interfaceHeader struct {
	typ unsafe.Pointer
	ptr unsafe.Pointer
}

type UnsupportedValueError struct {
	Value reflect.Value
	Str   string
}

func (e *UnsupportedValueError) Error() string {
	return "json: unsupported value: " + e.Str
}

type Encoder struct {
	buf []byte
}

func (e *Encoder) encode(v interface{}) error {
	if v == nil {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	header := (*interfaceHeader)(unsafe.Pointer(&v))
	typeptr := uintptr(header.typ)
	if codeSet := cachedOpcode.get(typeptr); codeSet != nil {
		code := codeSet.code.Get().(*opcode)
		ctx := codeSet.ctx.Get().(*encodeRuntimeContext)
		p := header.ptr
		ctx.init(p)
		err := e.run(ctx, code)
		codeSet.code.Put(code)
		codeSet.ctx.Put(ctx) // want `noreset`
		return err
	}

	code := e.compileHead(reflect.TypeOf(v))
	codeLength := code.length()
	codeSet := &opcodeSet{
		code: sync.Pool{
			New: func() interface{} {
				return code
			},
		},
		ctx: sync.Pool{
			New: func() interface{} {
				return &encodeRuntimeContext{
					ptrs:    make([]unsafe.Pointer, codeLength),
					seenPtr: map[uintptr]struct{}{},
				}
			},
		},
	}
	cachedOpcode.set(typeptr, codeSet)
	p := header.ptr
	ctx := codeSet.ctx.Get().(*encodeRuntimeContext)
	ctx.init(p)
	if err := e.run(ctx, code); err != nil {
		codeSet.ctx.Put(ctx)
		return err
	}
	codeSet.ctx.Put(ctx)
	return nil
}

func (e *Encoder) compileHead(typ reflect.Type) *opcode {
	end := &opcode{op: opEnd}
	if typ.Kind() == reflect.Ptr && typ.Elem().Kind() == reflect.Interface {
		return &opcode{op: opInterface, typ: typ.Elem(), next: end}
	}
	return &opcode{op: opInt, typ: typ, next: end}
}

func (e *Encoder) run(ctx *encodeRuntimeContext, code *opcode) error {
	seenPtr := ctx.seenPtr
	for {
		switch code.op {
		case opInterface:
			ptr := ctx.ptrs[code.idx]
			if _, exists := seenPtr[uintptr(ptr)]; exists {
				return &UnsupportedValueError{
					Value: reflect.ValueOf(ptr),
					Str:   fmt.Sprintf("encountered a cycle via %s", code.typ),
				}
			}
			seenPtr[uintptr(ptr)] = struct{}{}
			iv := *(*interface{})(ptr)
			if iv == nil {
				e.buf = append(e.buf, "null"...)
				code = code.next
				break
			}
			c := e.compileHead(reflect.TypeOf(iv))
			vh := (*interfaceHeader)(unsafe.Pointer(&iv))
			child := &encodeRuntimeContext{
				ptrs:    make([]unsafe.Pointer, c.length()),
				seenPtr: seenPtr,
			}
			child.init(vh.ptr)
			if err := e.run(child, c); err != nil {
				return err
			}
			code = code.next
		case opInt:
			e.buf = append(e.buf, fmt.Sprint(*(*int)(ctx.ptrs[code.idx]))...)
			code = code.next
		case opEnd:
			return nil
		}
	}
}

func Marshal(v interface{}) ([]byte, error) {
	e := &Encoder{}
	if err := e.encode(v); err != nil {
		return nil, err
	}
	copied := make([]byte, len(e.buf))
	copy(copied, e.buf)
	return copied, nil
}
