// Package bug reproduces the shape of open-telemetry/opentelemetry-go#8352
// (https://github.com/open-telemetry/opentelemetry-go/pull/8352, fixes #8320):
// the generated semconv instruments borrow a *[]AddOption from a package
// pool, append one option holding a copy of the caller's attributes, record,
// and in a deferred closure truncate the slice to [:0] and put it back. The
// truncation keeps every option in the backing array, so the idle pooled
// slice pins the previous caller's attribute sets; the fix clears the
// elements first.
//
// Check: noreset (a pooled *[]T of interface elements truncated to [:0]
// without clearing, in a deferred closure, right before the Put).
package bug

import (
	"context"
	"sync"
)

type KeyValue struct {
	Key   string
	Value string
}

func String(k, v string) KeyValue { return KeyValue{Key: k, Value: v} }

// Set is an immutable set of attributes.
type Set struct {
	kvs []KeyValue
}

type AddConfig struct {
	attrs Set
}

// AddOption configures one measurement.
type AddOption interface {
	applyAdd(AddConfig) AddConfig
}

type attrOpt struct {
	set Set
}

func (o attrOpt) applyAdd(c AddConfig) AddConfig {
	c.attrs = o.set
	return c
}

// WithAttributes copies attrs into a new Set.
func WithAttributes(attrs ...KeyValue) AddOption {
	cp := make([]KeyValue, len(attrs))
	copy(cp, attrs)
	return attrOpt{set: Set{kvs: cp}}
}

// Int64Counter is the SDK instrument.
type Int64Counter interface {
	Add(ctx context.Context, incr int64, opts ...AddOption)
}

var addOptPool = &sync.Pool{New: func() any { return &[]AddOption{} }}

// ClientActiveRequests is a generated instrument wrapper.
type ClientActiveRequests struct {
	Int64Counter
}

// Add adds incr to the count, with serverAddress and attrs as attributes.
func (m ClientActiveRequests) Add(ctx context.Context, incr int64, serverAddress string, attrs ...KeyValue) {
	if len(attrs) == 0 {
		m.Int64Counter.Add(ctx, incr)
		return
	}

	o := addOptPool.Get().(*[]AddOption)
	defer func() {
		*o = (*o)[:0]
		addOptPool.Put(o) // want `noreset`
	}()

	*o = append(*o, WithAttributes(append(attrs, String("server.address", serverAddress))...))
	m.Int64Counter.Add(ctx, incr, *o...)
}
