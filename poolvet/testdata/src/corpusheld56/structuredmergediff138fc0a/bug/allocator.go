// Source: https://github.com/kubernetes-sigs/structured-merge-diff/commit/138fc0a13636adba330a92a67970c7a3243e7561
// ("fully clear freed objects", part of
// https://github.com/kubernetes-sigs/structured-merge-diff/pull/322).
//
// Bug: the freelist allocator (value.NewFreelistAllocator, used by the
// apiserver's managed-fields/server-side-apply code to recycle short lived
// value objects) put freed objects back on its typed freelists without
// clearing them: listReflect kept its reflect.Value and listReflectRange kept
// the list it iterated and its type-cache entry (and its valueReflect's
// Value). Up to 1000 objects per freelist sat idle holding references to the
// reflected (and possibly large) objects of the last traversal, and the next
// user got an object still pointing at the previous user's data.
// Fix: Free zeroes every reference-holding field before freeing the object.
//
// Check: noreset (Free, the allocator's reset-and-put function, puts
// listReflect and listReflectRange back without clearing their fields).
package bug

// Allocator provides a value object allocation strategy.
type Allocator interface {
	// Free gives the allocator back any value objects returned by the "Using"
	// receiver functions on the value interfaces.
	Free(any)

	allocValueUnstructured() *valueUnstructured
	allocListReflect() *listReflect
	allocListReflectRange() *listReflectRange
}

// HeapAllocator simply allocates objects to the heap.
var HeapAllocator = &heapAllocator{}

type heapAllocator struct{}

func (p *heapAllocator) allocValueUnstructured() *valueUnstructured {
	return &valueUnstructured{}
}

func (p *heapAllocator) allocListReflect() *listReflect {
	return &listReflect{}
}

func (p *heapAllocator) allocListReflectRange() *listReflectRange {
	return &listReflectRange{vr: &valueReflect{}}
}

func (p *heapAllocator) Free(_ any) {}

// NewFreelistAllocator creates freelist based allocator.
// This allocator is unsafe and must not be accessed concurrently by goroutines.
func NewFreelistAllocator() Allocator {
	return &freelistAllocator{
		valueUnstructured: &freelist[*valueUnstructured]{new: func() *valueUnstructured {
			return &valueUnstructured{}
		}},
		listReflect: &freelist[*listReflect]{new: func() *listReflect {
			return &listReflect{}
		}},
		listReflectRange: &freelist[*listReflectRange]{new: func() *listReflectRange {
			return &listReflectRange{vr: &valueReflect{}}
		}},
	}
}

// Bound memory usage of freelists.
const freelistMaxSize = 1000

type freelistAllocator struct {
	valueUnstructured *freelist[*valueUnstructured]
	listReflect       *freelist[*listReflect]
	listReflectRange  *freelist[*listReflectRange]
}

type freelist[T any] struct {
	list []T
	new  func() T
}

func (f *freelist[T]) allocate() T {
	var w2 T
	if n := len(f.list); n > 0 {
		w2, f.list = f.list[n-1], f.list[:n-1]
	} else {
		w2 = f.new()
	}
	return w2
}

func (f *freelist[T]) free(v T) {
	if len(f.list) < freelistMaxSize {
		f.list = append(f.list, v)
	}
}

func (w *freelistAllocator) Free(value any) {
	switch v := value.(type) {
	case *valueUnstructured:
		v.Value = nil // don't hold references to unstructured objects
		w.valueUnstructured.free(v)
	case *listReflect:
		w.listReflect.free(v) // want `noreset`
	case *listReflectRange:
		v.vr.ParentMapKey = nil
		v.vr.ParentMap = nil
		w.listReflectRange.free(v) // want `noreset`
	}
}

func (w *freelistAllocator) allocValueUnstructured() *valueUnstructured {
	return w.valueUnstructured.allocate()
}

func (w *freelistAllocator) allocListReflect() *listReflect {
	return w.listReflect.allocate()
}

func (w *freelistAllocator) allocListReflectRange() *listReflectRange {
	return w.listReflectRange.allocate()
}
