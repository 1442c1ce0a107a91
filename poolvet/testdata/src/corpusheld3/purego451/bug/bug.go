// Package bug reproduces the shape of ebitengine/purego#451
// (https://github.com/ebitengine/purego/issues/451, fixed by
// https://github.com/ebitengine/purego/pull/457): the wrapper built by
// RegisterFunc takes a *syscallArgs from a sync.Pool and defers its Put. For a
// pointer result it built the reflect.Value with reflect.NewAt over the
// address of the pooled struct's a1 field, so the returned Value kept pointing
// into the pooled struct. Concurrent calls then swapped return values.
//
// Check: useafterput (an alias made through unsafe.Pointer and reflect.NewAt
// escapes through the return of a function whose Put is deferred; the report
// belongs at that return, per the docs on deferred Puts).
package bug

import (
	"reflect"
	"sync"
	"unsafe"
)

type syscallArgs struct {
	fn, a1, a2, a3 uintptr
	f1             uintptr
}

var thePool = sync.Pool{New: func() any { return new(syscallArgs) }}

// rawCall stands in for the assembly trampoline.
func rawCall(fn uintptr, args []uintptr) (uintptr, uintptr) {
	if len(args) == 0 {
		return fn, 0
	}
	return args[0] + fn, fn
}

// syscallN takes the argument block from the pool and fills it with the
// results of the call.
func syscallN(fn uintptr, args []uintptr) *syscallArgs {
	s := thePool.Get().(*syscallArgs)
	*s = syscallArgs{fn: fn}
	s.a1, s.a2 = rawCall(fn, args)
	s.f1 = s.a2
	return s
}

// RegisterFunc fills fptr (a pointer to a func variable) with a Go function
// that calls cfn.
func RegisterFunc(fptr any, cfn uintptr) {
	fn := reflect.ValueOf(fptr).Elem()
	ty := fn.Type()
	v := reflect.MakeFunc(ty, func(args []reflect.Value) []reflect.Value {
		sysargs := make([]uintptr, 0, len(args))
		for _, a := range args {
			sysargs = append(sysargs, uintptr(a.Uint()))
		}
		syscall := syscallN(cfn, sysargs)
		defer thePool.Put(syscall)
		if ty.NumOut() == 0 {
			return nil
		}
		outType := ty.Out(0)
		v := reflect.New(outType).Elem()
		switch outType.Kind() {
		case reflect.Uintptr, reflect.Uint, reflect.Uint64:
			v.SetUint(uint64(syscall.a1))
		case reflect.Bool:
			v.SetBool(byte(syscall.a1) != 0)
		case reflect.Pointer:
			// The Value is a view of syscall.a1 itself.
			v = reflect.NewAt(outType, unsafe.Pointer(&syscall.a1)).Elem()
		default:
			panic("unsupported return kind: " + outType.Kind().String())
		}
		return []reflect.Value{v} // want `useafterput`
	})
	fn.Set(v)
}
