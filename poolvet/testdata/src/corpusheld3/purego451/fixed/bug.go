// Package fixed is purego#451 after https://github.com/ebitengine/purego/pull/457:
// the pointer result is first copied into a local variable, and the
// reflect.Value is built over that local, not over the pooled struct.
package fixed

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

func rawCall(fn uintptr, args []uintptr) (uintptr, uintptr) {
	if len(args) == 0 {
		return fn, 0
	}
	return args[0] + fn, fn
}

func syscallN(fn uintptr, args []uintptr) *syscallArgs {
	s := thePool.Get().(*syscallArgs)
	*s = syscallArgs{fn: fn}
	s.a1, s.a2 = rawCall(fn, args)
	s.f1 = s.a2
	return s
}

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
			// Copy a1 out of the pooled struct before taking its address.
			a1 := syscall.a1
			v = reflect.NewAt(outType, unsafe.Pointer(&a1)).Elem()
		default:
			panic("unsupported return kind: " + outType.Kind().String())
		}
		return []reflect.Value{v}
	})
	fn.Set(v)
}
