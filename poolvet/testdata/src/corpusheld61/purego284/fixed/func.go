// Source: https://github.com/ebitengine/purego/pull/284
// Commit: https://github.com/ebitengine/purego/commit/999f588e454888ff33d0f31b54c398940a961f53
// ("purego: clean syscall after getting from the pool").
//
// Bug: RegisterFunc's generated function takes a *syscall15Args from
// thePool (a sync.Pool) and defers its Put without clearing it. The
// arm64_r8 field is only written when the function returns a large
// struct on arm64, yet `syscall.arm64_r8` is then copied into the new
// args on every call, so a call that does not set it passes the previous
// caller's pointer in r8; the Windows fallback path does not clear the
// object at all. The pooled object came out (and went back) holding the
// previous call's state.
// Fix: keep arm64_r8 in a local, Get the object only right before the
// call, and overwrite it completely (*syscall = syscall15Args{...}) on
// both paths.
//
// Check: noreset (at the deferred Put of the pooled syscall15Args, which
// is returned to thePool still holding the previous call's arm64_r8 and
// results and is reused without being cleared)
package fixed

import (
	"reflect"
	"runtime"
	"sync"
)

const (
	maxArgs               = 15
	numOfFloats           = 8
	maxRegAllocStructSize = 16
)

type syscall15Args struct {
	fn, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15 uintptr
	f1, f2, f3, f4, f5, f6, f7, f8                                       uintptr
	arm64_r8                                                             uintptr
}

var thePool = sync.Pool{New: func() any {
	return new(syscall15Args)
}}

func numOfIntegerRegisters() int { return 8 }

// runtime_cgocall stands in for the assembly trampoline.
func runtime_cgocall(fn func(*syscall15Args), args *syscall15Args) { fn(args) }

func syscall15XABI0(args *syscall15Args) { args.a1 = args.fn + args.arm64_r8 }

func syscall_syscall15X(fn, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15 uintptr) (r1, r2, err uintptr) {
	return fn + a1, 0, 0
}

// callC is the body of the function built by RegisterFunc.
func callC(cfn uintptr, ty reflect.Type, args []reflect.Value) []reflect.Value {
	var sysargs [maxArgs]uintptr
	var floats [numOfFloats]uintptr
	var numInts int
	addInt := func(x uintptr) {
		if numInts < numOfIntegerRegisters() {
			sysargs[numInts] = x
			numInts++
		}
	}

	var keepAlive []any
	defer func() {
		runtime.KeepAlive(keepAlive)
		runtime.KeepAlive(args)
	}()

	var arm64_r8 uintptr
	if ty.NumOut() == 1 && ty.Out(0).Kind() == reflect.Struct {
		outType := ty.Out(0)
		if runtime.GOARCH == "amd64" && outType.Size() > maxRegAllocStructSize {
			val := reflect.New(outType)
			keepAlive = append(keepAlive, val)
			addInt(val.Pointer())
		} else if runtime.GOARCH == "arm64" && outType.Size() > maxRegAllocStructSize {
			val := reflect.New(outType)
			keepAlive = append(keepAlive, val)
			arm64_r8 = val.Pointer()
		}
	}
	for _, v := range args {
		addInt(uintptr(v.Uint()))
	}

	syscall := thePool.Get().(*syscall15Args)
	defer thePool.Put(syscall)

	if runtime.GOARCH == "arm64" || runtime.GOOS != "windows" {
		*syscall = syscall15Args{
			cfn,
			sysargs[0], sysargs[1], sysargs[2], sysargs[3], sysargs[4], sysargs[5],
			sysargs[6], sysargs[7], sysargs[8], sysargs[9], sysargs[10], sysargs[11],
			sysargs[12], sysargs[13], sysargs[14],
			floats[0], floats[1], floats[2], floats[3], floats[4], floats[5], floats[6], floats[7],
			arm64_r8,
		}
		runtime_cgocall(syscall15XABI0, syscall)
	} else {
		*syscall = syscall15Args{}
		// This is a fallback for Windows amd64, 386, and arm.
		syscall.a1, syscall.a2, _ = syscall_syscall15X(cfn, sysargs[0], sysargs[1], sysargs[2], sysargs[3], sysargs[4],
			sysargs[5], sysargs[6], sysargs[7], sysargs[8], sysargs[9], sysargs[10], sysargs[11],
			sysargs[12], sysargs[13], sysargs[14])
		syscall.f1 = syscall.a2
	}
	if ty.NumOut() == 0 {
		return nil
	}
	v := reflect.New(ty.Out(0)).Elem()
	if v.Kind() == reflect.Uintptr {
		v.SetUint(uint64(syscall.a1))
	}
	return []reflect.Value{v}
}
