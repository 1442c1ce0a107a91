// Package bug reproduces the shape of coredns/coredns#7701
// (https://github.com/coredns/coredns/pull/7701, commit 6526f07120458d766ac3acaf237ae54dfe73bd41
// "plugin/pkg/replacer: fix usage of sync.Pool to save an alloc"): the log
// replacer renders a parsed format (a list of literal / label / metadata
// nodes) into a scratch []byte taken from bufPool. The pool held bare []byte
// values, so every Put(b[:0]) boxed a fresh slice header into an interface
// (an allocation per query, silenced with a nolint directive). The fix pools
// *[]byte and stores the truncated slice back through the pointer.
// A capacity guard (not part of the project code) is present in both twins so
// that only the non-pointer Put differs.
//
// Check: nonpointer (bufPool.Put of a []byte value at the end of Replace).
package bug

import (
	"context"
	"strconv"
	"sync"
)

const EmptyValue = "-"

type nodeType int

const (
	typeLabel nodeType = iota
	typeLiteral
	typeMetadata
)

type node struct {
	value string
	typ   nodeType
}

type replacer []node

// Request is the subset of the DNS request state the replacer reads.
type Request struct {
	Name, Type, Proto string
	Size              int
}

// Recorder records the response written by the next plugin.
type Recorder struct {
	Rcode int
	Len   int
}

type metaKey struct{}

func metadataValue(ctx context.Context, label string) func() string {
	m, _ := ctx.Value(metaKey{}).(map[string]func() string)
	return m[label]
}

func appendValue(b []byte, state Request, rr *Recorder, label string) []byte {
	switch label {
	case "{type}":
		return append(b, state.Type...)
	case "{name}":
		return append(b, state.Name...)
	case "{proto}":
		return append(b, state.Proto...)
	case "{size}":
		return strconv.AppendInt(b, int64(state.Size), 10)
	case "{rcode}":
		if rr == nil {
			return append(b, EmptyValue...)
		}
		return strconv.AppendInt(b, int64(rr.Rcode), 10)
	case "{rsize}":
		if rr == nil {
			return append(b, EmptyValue...)
		}
		return strconv.AppendInt(b, int64(rr.Len), 10)
	}
	return append(b, EmptyValue...)
}

const maxPooledCap = 4 << 10

// bufPool stores pointers to scratch buffers.
var bufPool = sync.Pool{
	New: func() any {
		b := make([]byte, 0, 256)
		return &b
	},
}

// Replace renders the format for one request.
func (r replacer) Replace(ctx context.Context, state Request, rr *Recorder) string {
	p := bufPool.Get().(*[]byte)
	b := *p
	for _, s := range r {
		switch s.typ {
		case typeLabel:
			b = appendValue(b, state, rr, s.value)
		case typeLiteral:
			b = append(b, s.value...)
		case typeMetadata:
			if fm := metadataValue(ctx, s.value); fm != nil {
				b = append(b, fm()...)
			} else {
				b = append(b, EmptyValue...)
			}
		}
	}
	s := string(b)
	if cap(b) <= maxPooledCap {
		*p = b[:0]
		bufPool.Put(p)
	}
	return s
}
