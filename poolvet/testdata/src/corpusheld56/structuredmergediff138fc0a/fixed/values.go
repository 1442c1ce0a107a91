package fixed

import "reflect"

type valueUnstructured struct {
	Value interface{}
}

func (vi *valueUnstructured) reuse(value interface{}) *valueUnstructured {
	vi.Value = value
	return vi
}

type valueReflect struct {
	ParentMap    *reflect.Value
	ParentMapKey *reflect.Value
	Value        reflect.Value
}

func (r *valueReflect) reuse(val reflect.Value, parentMap, parentMapKey *reflect.Value) *valueReflect {
	r.Value = val
	r.ParentMap = parentMap
	r.ParentMapKey = parentMapKey
	return r
}

// TypeReflectCacheEntry keeps cached info necessary for mapping a Go type.
type TypeReflectCacheEntry struct {
	isJsonMarshaler    bool
	ptrIsJsonMarshaler bool
}

var typeCache = map[reflect.Type]*TypeReflectCacheEntry{}

func TypeReflectEntryOf(t reflect.Type) *TypeReflectCacheEntry {
	if e, ok := typeCache[t]; ok {
		return e
	}
	e := &TypeReflectCacheEntry{}
	typeCache[t] = e
	return e
}

type listReflect struct {
	Value reflect.Value
}

func (r listReflect) Length() int {
	return r.Value.Len()
}

// ListUsing wraps a reflected slice in a listReflect from the allocator.
func ListUsing(a Allocator, val reflect.Value) *listReflect {
	l := a.allocListReflect()
	l.Value = val
	return l
}

func (r listReflect) RangeUsing(a Allocator) *listReflectRange {
	length := r.Value.Len()
	if length == 0 {
		return nil
	}
	rr := a.allocListReflectRange()
	rr.list = r.Value
	rr.i = -1
	rr.entry = TypeReflectEntryOf(r.Value.Type().Elem())
	return rr
}

type listReflectRange struct {
	list  reflect.Value
	vr    *valueReflect
	i     int
	entry *TypeReflectCacheEntry
}

func (r *listReflectRange) Next() bool {
	r.i += 1
	return r.i < r.list.Len()
}

func (r *listReflectRange) Item() (index int, value *valueReflect) {
	if r.i < 0 {
		panic("Item() called before first calling Next()")
	}
	if r.i >= r.list.Len() {
		panic("Item() called on ListRange with no more items")
	}
	v := r.list.Index(r.i)
	return r.i, r.vr.reuse(v, nil, nil)
}

// countItems walks a reflected list with recycled value objects, the way the
// typed walkers do.
func countItems(a Allocator, obj interface{}) int {
	l := ListUsing(a, reflect.ValueOf(obj))
	defer a.Free(l)
	rng := l.RangeUsing(a)
	if rng == nil {
		return 0
	}
	defer a.Free(rng)
	n := 0
	for rng.Next() {
		_, v := rng.Item()
		if v.Value.IsValid() {
			n++
		}
	}
	return n
}
