package useafterput

import (
	"bytes"
	"sync"
)

var storePool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var byKey = map[string][]byte{}

// Bytes kept in a package-level map outlive the Put.
func remember(k, v string) {
	b := storePool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(v)
	byKey[k] = b.Bytes()
	if b.Cap() < 1<<16 {
		storePool.Put(b) // want `b is put back into the pool while package-level byKey \(stored there at line 17\) may still use it`
	}
}

// Deleted again before the Put: silent.
func rememberBriefly(k, v string) int {
	b := storePool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(v)
	byKey[k] = b.Bytes()
	n := len(byKey)
	delete(byKey, k)
	if b.Cap() < 1<<16 {
		storePool.Put(b)
	}
	return n
}

// A slice that collects the bytes holds them after the Put.
func collectAll(vs []string) [][]byte {
	var out [][]byte
	for _, v := range vs {
		b := storePool.Get().(*bytes.Buffer)
		b.Reset()
		b.WriteString(v)
		out = append(out, b.Bytes())
		if b.Cap() < 1<<16 {
			storePool.Put(b)
		}
	}
	return out // want `b is used after it was put back into the pool`
}

// append(dst, b.Bytes()...) copies: silent.
func concat(vs []string) []byte {
	var out []byte
	for _, v := range vs {
		b := storePool.Get().(*bytes.Buffer)
		b.Reset()
		b.WriteString(v)
		out = append(out, b.Bytes()...)
		if b.Cap() < 1<<16 {
			storePool.Put(b)
		}
	}
	return out
}
