// Source: https://github.com/bytedance/sonic/pull/132
// (commit ba4c2d2e55f707c61a78d4062b4f6d108b339ec0,
// "fix: set _Stack.sp zero whenever put into pool")
//
// Bug: sonic's decoder takes a *_Stack (the JIT decoder's explicit state
// stack: sp, the slot array sb, the state machine and the vp slots) from
// stackPool for every Decode and gives it back with freeStack. When the
// JIT-compiled decoder bailed out with a syntax error it left sb.sp where
// it was, and freeStack put the stack back without resetting sp. The next
// Decode that got this stack started from the previous user's stack
// pointer; after enough failed decodes (TestDecoderErrorStackOverflower:
// _MaxStack * GOMAXPROCS decodes of `{"a":[]}` into map[string]string) the
// decoder ran off the end of the stack.
// Fix: freeStack sets p.sp = 0 before stackPool.Put(p) (the PR also fixes
// the generic decoder's stack map, not modelled here).
//
// Check: noreset (at stackPool.Put(p) in freeStack: the pooled _Stack goes
// back still holding the last user's stack pointer sp).
package fixed

import (
	"errors"
	"runtime"
	"sync"
	"unsafe"
)

const (
	_MinSlice = 16
	_MaxStack = 65536 // 64k slots
)

const _MAX_RECURSE = 4096

type StateMachine struct {
	Sp int
	Vt [_MAX_RECURSE]int
}

var (
	stackPool = sync.Pool{}
)

type _Stack struct {
	sp uintptr
	sb [_MaxStack]unsafe.Pointer
	mm StateMachine
	vp [_MAX_RECURSE]*interface{}
}

type _Decoder func(
	s string,
	i int,
	vp unsafe.Pointer,
	sb *_Stack,
	fv uint64,
) (int, error)

var errSyntax = errors.New("invalid char")

func newStack() *_Stack {
	if ret := stackPool.Get(); ret == nil {
		return new(_Stack)
	} else {
		return ret.(*_Stack)
	}
}

func freeStack(p *_Stack) {
	p.sp = 0
	stackPool.Put(p)
}

// decodeObject stands in for the JIT-compiled map[string]string decoder: it
// pushes one slot per nested object on sb and, like the generated code, jumps
// straight to the error exit without unwinding sp when it meets a character
// that cannot start a string value (the '[' at index 5 of `{"a":[]}`).
func decodeObject(s string, i int, vp unsafe.Pointer, sb *_Stack, fv uint64) (int, error) {
	for ; i < len(s); i++ {
		switch s[i] {
		case '{':
			if sb.sp >= _MaxStack {
				panic("decoder stack overflow")
			}
			sb.sb[sb.sp] = vp
			sb.sp++
		case '}':
			if sb.sp == 0 {
				return i, errSyntax
			}
			sb.sp--
			sb.sb[sb.sp] = nil
		case '"', ':', ',', 'a':
		default:
			return i, errSyntax
		}
	}
	return i, nil
}

type Decoder struct {
	i int
	f uint64
	s string
}

func NewDecoder(s string) *Decoder {
	return &Decoder{s: s}
}

// Decode parses the JSON-encoded data from current position and stores
// the result in the value pointed to by val.
func (self *Decoder) Decode(val *map[string]string) error {
	vp := unsafe.Pointer(val)

	/* create a new stack, and call the decoder */
	sb := newStack()
	var fn _Decoder = decodeObject
	nb, err := fn(self.s, self.i, vp, sb, self.f)

	/* return the stack back */
	self.i = nb
	freeStack(sb)

	/* avoid GC ahead */
	runtime.KeepAlive(val)
	return err
}
