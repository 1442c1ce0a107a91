// Package bug reproduces the shape of coredns/coredns#7701
// (https://github.com/coredns/coredns/pull/7701): the log/replacer package formats each DNS
// query through a cached list of nodes, appending into a scratch []byte taken from bufPool.
// The pool stores the byte slice itself, so every bufPool.Put(b[:0]) boxes a slice header into
// an interface and allocates (the staticcheck SA6002 warning had been silenced with a nolint
// comment). The fix pools a *[]byte and writes the truncated slice back through the pointer.
// (Both twins drop oversized scratch buffers so that only the boxing differs.)
// Check: nonpointer (reported at the Put in replacer.Replace).
package bug

import (
	"context"
	"strconv"
	"strings"
	"sync"
)

const EmptyValue = "-"

// Request is the subset of the DNS request state the replacer reads.
type Request struct {
	Name, Type, Proto string
	Remote            string
	Size              int
}

// Recorder captures what the handler chain wrote back.
type Recorder struct {
	Rcode int
	Len   int
}

type metadataKey struct{}

// valueFunc looks up a metadata label that an earlier plugin attached to ctx.
func valueFunc(ctx context.Context, label string) func() string {
	m, _ := ctx.Value(metadataKey{}).(map[string]func() string)
	return m[label]
}

func appendAddr(b []byte, addr string) []byte {
	if strings.IndexByte(addr, ':') != -1 {
		b = append(b, '[')
		b = append(b, addr...)
		return append(b, ']')
	}
	return append(b, addr...)
}

func appendValue(b []byte, st Request, rr *Recorder, label string) []byte {
	switch label {
	case "{type}":
		return append(b, st.Type...)
	case "{name}":
		return append(b, st.Name...)
	case "{proto}":
		return append(b, st.Proto...)
	case "{remote}":
		return appendAddr(b, st.Remote)
	case "{size}":
		return strconv.AppendInt(b, int64(st.Size), 10)
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

const maxScratch = 64 << 10

var bufPool = sync.Pool{
	New: func() any {
		return make([]byte, 0, 256)
	},
}

// Replace renders the parsed format for one query.
func (r replacer) Replace(ctx context.Context, st Request, rr *Recorder) string {
	b := bufPool.Get().([]byte)
	for _, n := range r {
		switch n.typ {
		case typeLabel:
			b = appendValue(b, st, rr, n.value)
		case typeLiteral:
			b = append(b, n.value...)
		case typeMetadata:
			if fm := valueFunc(ctx, n.value); fm != nil {
				b = append(b, fm()...)
			} else {
				b = append(b, EmptyValue...)
			}
		}
	}
	s := string(b)
	if cap(b) <= maxScratch {
		bufPool.Put(b[:0]) // want `nonpointer`
	}
	return s
}
