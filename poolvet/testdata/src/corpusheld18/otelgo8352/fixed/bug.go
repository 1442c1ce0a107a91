// Package fixed is the fix of open-telemetry/opentelemetry-go#8352
// (https://github.com/open-telemetry/opentelemetry-go/pull/8352): the
// deferred closure clears the pooled slice's elements before truncating it
// and putting it back, so the idle slice refers to no attribute set.
package fixed

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
		clear(*o)
		*o = (*o)[:0]
		addOptPool.Put(o)
	}()

	*o = append(*o, WithAttributes(append(attrs, String("server.address", serverAddress))...))
	m.Int64Counter.Add(ctx, incr, *o...)
}
