// Package bug reproduces the shape of jackc/pgx#2136
// (https://github.com/jackc/pgx/pull/2136, fix commit 47cbd8edb8b59458af8191dddb2cf1b0f96f4603
// "drop too large values from memory pools"): the SQL sanitizer renders a
// query with its arguments into a *bytes.Buffer taken from a small generic
// pool wrapper (pool[E] with new/reset funcs). The buffer's reset hook was
// just (*bytes.Buffer).Reset, and put always handed the buffer back to the
// sync.Pool, so one query with a huge string or []byte argument left a buffer
// of that size parked in the pool for every later query. The fix makes reset
// report whether the value is worth keeping and drops buffers of 16 KiB or more.
//
// Check: unbounded (the grown *bytes.Buffer goes back through bufPool.put,
// whose reset never bounds its size; reported at the deferred put call).
package bug

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Part is raw SQL (string) or a 1-based argument placeholder (int).
type Part any

type Query struct {
	Parts []Part
}

type pool[E any] struct {
	p     sync.Pool
	new   func() E
	reset func(E)
}

func (pool *pool[E]) get() E {
	v, ok := pool.p.Get().(E)
	if !ok {
		v = pool.new()
	}
	return v
}

func (p *pool[E]) put(v E) {
	p.reset(v)
	p.p.Put(v)
}

var bufPool = &pool[*bytes.Buffer]{
	new: func() *bytes.Buffer {
		return &bytes.Buffer{}
	},
	reset: (*bytes.Buffer).Reset,
}

var null = []byte("null")

func quoteString(dst []byte, s string) []byte {
	dst = append(dst, '\'')
	dst = append(dst, strings.ReplaceAll(s, "'", "''")...)
	return append(dst, '\'')
}

func quoteBytes(dst []byte, b []byte) []byte {
	dst = append(dst, `'\x`...)
	for _, c := range b {
		dst = strconv.AppendUint(dst, uint64(c)>>4, 16)
		dst = strconv.AppendUint(dst, uint64(c)&0xf, 16)
	}
	return append(dst, '\'')
}

// Sanitize renders the query with its arguments inlined.
func (q *Query) Sanitize(args ...any) (string, error) {
	argUse := make([]bool, len(args))
	buf := bufPool.get()
	defer bufPool.put(buf) // want `unbounded`

	for _, part := range q.Parts {
		switch part := part.(type) {
		case string:
			buf.WriteString(part)
		case int:
			argIdx := part - 1
			if argIdx < 0 {
				return "", fmt.Errorf("first sql argument must be > 0")
			}
			if argIdx >= len(args) {
				return "", fmt.Errorf("insufficient arguments")
			}
			buf.WriteByte(' ')

			var p []byte
			switch arg := args[argIdx].(type) {
			case nil:
				p = null
			case int64:
				p = strconv.AppendInt(buf.AvailableBuffer(), arg, 10)
			case bool:
				p = strconv.AppendBool(buf.AvailableBuffer(), arg)
			case []byte:
				p = quoteBytes(buf.AvailableBuffer(), arg)
			case string:
				p = quoteString(buf.AvailableBuffer(), arg)
			default:
				return "", fmt.Errorf("invalid arg type: %T", arg)
			}
			argUse[argIdx] = true
			buf.Write(p)
			buf.WriteByte(' ')
		default:
			return "", fmt.Errorf("invalid Part type: %T", part)
		}
	}

	for i, used := range argUse {
		if !used {
			return "", fmt.Errorf("unused argument: %d", i)
		}
	}
	return buf.String(), nil
}
