// Package bug reproduces the shape of jackc/pgx#2136 (https://github.com/jackc/pgx/pull/2136,
// commit 47cbd8edb8b59458af8191dddb2cf1b0f96f4603): the SQL sanitizer keeps its output
// bytes.Buffer in a small generic pool wrapper whose reset hook only calls Reset. A single
// query with a huge argument grows the buffer, and the wrapper puts it back regardless of its
// capacity, so the pool keeps the large backing array alive. The fix made the reset hook
// report whether the value may be pooled and dropped buffers past 16 KiB.
// Check: unbounded (fixed twin: the reset hook bounds the buffer and put skips the Put; the
// bound is taken on Cap rather than the project's Len, the stricter form of the same guard).
package bug

import (
	"bytes"
	"fmt"
	"strconv"
	"sync"
)

// Part is either raw SQL text (string) or a 1-based placeholder index (int).
type Part any

type Query struct {
	Parts []Part
}

const maxBufSize = 16384

type pool[E any] struct {
	p     sync.Pool
	new   func() E
	reset func(E) bool
}

func (pl *pool[E]) get() E {
	v, ok := pl.p.Get().(E)
	if !ok {
		v = pl.new()
	}
	return v
}

func (pl *pool[E]) put(v E) {
	if pl.reset(v) {
		pl.p.Put(v)
	}
}

var bufPool = &pool[*bytes.Buffer]{
	new: func() *bytes.Buffer {
		return &bytes.Buffer{}
	},
	reset: func(b *bytes.Buffer) bool {
		n := b.Cap()
		b.Reset()
		return n < maxBufSize
	},
}

var null = []byte("null")

func quoteString(dst []byte, s string) []byte {
	dst = append(dst, '\'')
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			dst = append(dst, '\'')
		}
		dst = append(dst, s[i])
	}
	return append(dst, '\'')
}

// Sanitize renders the query with its arguments inlined.
func (q *Query) Sanitize(args ...any) (string, error) {
	used := make([]bool, len(args))
	buf := bufPool.get()
	defer bufPool.put(buf)

	for _, part := range q.Parts {
		switch part := part.(type) {
		case string:
			buf.WriteString(part)
		case int:
			idx := part - 1
			if idx < 0 || idx >= len(args) {
				return "", fmt.Errorf("bad argument index %d", part)
			}
			buf.WriteByte(' ')
			var p []byte
			switch a := args[idx].(type) {
			case nil:
				p = null
			case int64:
				p = strconv.AppendInt(buf.AvailableBuffer(), a, 10)
			case string:
				p = quoteString(buf.AvailableBuffer(), a)
			default:
				return "", fmt.Errorf("invalid arg type: %T", a)
			}
			used[idx] = true
			buf.Write(p)
			buf.WriteByte(' ')
		default:
			return "", fmt.Errorf("invalid Part type: %T", part)
		}
	}
	for i, u := range used {
		if !u {
			return "", fmt.Errorf("unused argument: %d", i)
		}
	}
	return buf.String(), nil
}
