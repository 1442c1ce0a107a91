package unbounded

import "sync"

// A release helper that clears a pooled map and puts it back, with no
// bound on its size, while its caller fills the map from the input through
// a generic helper called in a loop: the map keeps its buckets, and the
// helper's Put is where the size goes unchecked (gofiber/fiber#4420).
var formMaps = sync.Pool{New: func() any { return map[string][]string{} }}

func addFormValue[V any](m map[string][]V, key string, vs []V) {
	m[key] = append(m[key], vs...)
}

func releaseFormMap(m map[string][]string) {
	clear(m)
	formMaps.Put(m) // want `m \(map\[string\]\[\]string\) is put into the pool without a size check: a map keeps its buckets after clear`
}

func bindForm(in map[string][]string, use func(map[string][]string)) {
	m := formMaps.Get().(map[string][]string)
	defer releaseFormMap(m)
	for k, vs := range in {
		addFormValue(m, k, vs)
	}
	use(m)
}

// The fix bounds the map in the helper.
var boundedFormMaps = sync.Pool{New: func() any { return map[string][]string{} }}

func releaseBoundedFormMap(m map[string][]string) {
	if len(m) > 64 {
		return
	}
	clear(m)
	boundedFormMaps.Put(m)
}

func bindBoundedForm(in map[string][]string, use func(map[string][]string)) {
	m := boundedFormMaps.Get().(map[string][]string)
	defer releaseBoundedFormMap(m)
	for k, vs := range in {
		addFormValue(m, k, vs)
	}
	use(m)
}

// A helper whose callers only set fixed keys: no growth, not reported.
var fixedMaps = sync.Pool{New: func() any { return map[string]string{} }}

func releaseFixedMap(m map[string]string) {
	clear(m)
	fixedMaps.Put(m)
}

func tagged(use func(map[string]string)) {
	m := fixedMaps.Get().(map[string]string)
	defer releaseFixedMap(m)
	m["kind"] = "form"
	m["version"] = "1"
	use(m)
}
