package nonpointer

import (
	"sync"

	"github.com/poolkit/pool"
)

var bytesPool sync.Pool

func putSlice(b []byte) {
	bytesPool.Put(b[:0]) // want `non-pointer value of type \[\]byte put into sync.Pool: converting it to an interface allocates on every Put`
}

func putSlicePtr(b []byte) {
	b = b[:0]
	bytesPool.Put(&b)
}

type small struct{ a, b int }

func putStruct(s small) {
	bytesPool.Put(s) // want `non-pointer value of type small put into sync.Pool`
}

func putString(s string) {
	bytesPool.Put(s) // want `non-pointer value of type string`
}

func putMap(m map[string]int) {
	bytesPool.Put(m)
}

func putPtrStruct(p struct{ p *int }) {
	bytesPool.Put(p)
}

func putEmpty() {
	bytesPool.Put(struct{}{})
}

func putAny(x any) {
	bytesPool.Put(x)
}

// release is a wrapper that takes any: its callers box.
func release(x any) {
	bytesPool.Put(x)
}

func viaWrapper(b []byte) {
	release(b) // want `non-pointer value of type \[\]byte put into a pool through a wrapper that takes any`
	release(&b)
}

// A typed pool stores []byte without boxing: fine.
var typed pool.Pool[[]byte]

func typedSlice(b []byte) {
	typed.Put(b[:0])
}

// Generic code: the type is not known here.
func putGeneric[T any](x T) {
	bytesPool.Put(x)
}
