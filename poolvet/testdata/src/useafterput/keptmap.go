package useafterput

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"sync"
	"unsafe"
)

// A handler that keeps, in a long-lived map, a slice of the pooled request
// buffer its caller puts back when it returns (seaweedfs/seaweedfs#9278
// through go-fuse's RawFileSystem interface).

var reqBufPool = sync.Pool{New: func() any { b := make([]byte, 4096); return &b }}

// readReq returns the pooled buffer and the request read into it.
func readReq(r io.Reader) (*[]byte, []byte, error) {
	bufp := reqBufPool.Get().(*[]byte)
	n, err := r.Read(*bufp)
	if err != nil {
		reqBufPool.Put(bufp)
		return nil, nil, err
	}
	return bufp, (*bufp)[:n], nil
}

type attrFS interface {
	setAttr(node uint64, name string, value []byte)
}

type attrEntry struct{ attrs map[string][]byte }

type attrStore struct {
	mu      sync.Mutex
	entries map[uint64]*attrEntry
}

func (s *attrStore) entry(node uint64) *attrEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.entries[node]
}

func (s *attrStore) setAttr(node uint64, name string, value []byte) {
	e := s.entry(node)
	if e.attrs == nil {
		e.attrs = map[string][]byte{}
	}
	e.attrs[name] = value
}

type copyingStore struct{ attrs map[string][]byte }

func (s *copyingStore) setAttr(node uint64, name string, value []byte) {
	s.attrs[name] = bytes.Clone(value)
}

// scratchStore keeps the value only in a map of its own call.
type scratchStore struct{ n int }

func (s *scratchStore) setAttr(node uint64, name string, value []byte) {
	m := map[string][]byte{name: nil}
	m[name] = value
	s.n += len(m)
}

func serveAttr(fs attrFS, r io.Reader) error {
	bufp, in, err := readReq(r)
	if err != nil {
		return err
	}
	defer reqBufPool.Put(bufp)
	if len(in) < 2 {
		return nil
	}
	fs.setAttr(uint64(in[0]), string(in[1:2]), in[2:]) // want `bufp, or memory of it, is passed here to a call that keeps it in a map \(keptmap.go:51\), and goes back to the pool with the deferred Put at line 74`
	return nil
}

// cachedValues keeps what it is given.
type cachedValues struct{ m map[string][]byte }

func (c *cachedValues) remember(name string, value []byte) { c.m[name] = value }

func cacheThenPut(c *cachedValues, r io.Reader) {
	bufp, in, err := readReq(r)
	if err != nil {
		return
	}
	c.remember("last", in) // want `useafterput`
	reqBufPool.Put(bufp)
}

// rememberOwn is given memory that is not pooled.
func rememberOwn(c *cachedValues, value string) {
	c.remember("own", []byte(value))
}

// A chunk mapper keeps the chunk itself; its caller releases the chunk to
// the chunk pool after the call (prometheus/prometheus#18238).
type kmChunk interface{ Bytes() []byte }

type kmXORChunk struct{ b []byte }

func (c *kmXORChunk) Bytes() []byte { return c.b } // want Bytes:`pool:alias`

var kmChunkPool = sync.Pool{New: func() any { return new(kmXORChunk) }}

type kmMapper struct{ buffered map[int]kmChunk }

func (m *kmMapper) write(ref int, c kmChunk) { m.buffered[ref] = c }

type kmMemChunk struct{ chunk kmChunk }

func kmFlush(m *kmMapper, mc *kmMemChunk) {
	m.write(1, mc.chunk) // want `useafterput`
	if x, ok := mc.chunk.(*kmXORChunk); ok && cap(x.b) <= 1024 {
		kmChunkPool.Put(x)
	}
}

// The mapper that forgets what it wrote: silent.
type kmForgetful struct{ buffered map[int]kmChunk }

func (m *kmForgetful) write(ref int, c kmChunk) {
	m.buffered[ref] = c
	delete(m.buffered, ref)
}

func kmFlush2(m *kmForgetful, mc *kmMemChunk) {
	m.write(1, mc.chunk)
	if x, ok := mc.chunk.(*kmXORChunk); ok && cap(x.b) <= 1024 {
		kmChunkPool.Put(x)
	}
}

// A copy kept: silent.
func (m *kmMapper) writeCopy(ref int, c kmChunk) {
	m.buffered[ref] = &kmXORChunk{b: append([]byte(nil), c.Bytes()...)}
}

func kmFlush3(m *kmMapper, mc *kmMemChunk) {
	m.writeCopy(1, mc.chunk)
	if x, ok := mc.chunk.(*kmXORChunk); ok && cap(x.b) <= 1024 {
		kmChunkPool.Put(x)
	}
}

// A delivery that keeps the subscription only on the auto-unsubscribe
// path, which the pooling caller turns off (nats-server's gateway): the
// pointer is not kept on every path; silent.
type kmSub struct{ max int }

var kmSubPool = sync.Pool{New: func() any { return new(kmSub) }}

type kmSublist struct{ subs map[*kmSub]bool }

func (l *kmSublist) deliver(s *kmSub) {
	if s.max > 0 {
		l.subs[s] = true
	}
}

func kmDeliverAll(l *kmSublist) {
	s := kmSubPool.Get().(*kmSub)
	s.max = 0
	l.deliver(s)
	kmSubPool.Put(s)
}

// A query rendered into a pooled buffer, turned into a string without a
// copy and handed to a connection that caches statements by their text
// (uptrace/bun#36). The render helper returns nil on its error path and
// grows the buffer with strconv.AppendInt; update keeps the grown buffer
// only while it is small, so the field stays the pool's memory.
func kmString(b []byte) string { return *(*string)(unsafe.Pointer(&b)) }

type kmQueryBuf struct{ b []byte }

var kmQueryPool = sync.Pool{New: func() any { return &kmQueryBuf{b: make([]byte, 0, 512)} }}

func (q *kmQueryBuf) update(b []byte) {
	if len(b) < 1<<16 {
		q.b = b
	}
}

func kmPutQuery(q *kmQueryBuf) {
	q.b = q.b[:0]
	kmQueryPool.Put(q)
}

type kmStmtCache struct{ stmts map[string]int }

func (c *kmStmtCache) exec(query string) int {
	id, ok := c.stmts[query]
	if !ok {
		id = len(c.stmts) + 1
		c.stmts[query] = id
	}
	return id
}

type kmUpdate struct {
	table string
	id    int
}

func (u *kmUpdate) render(b []byte) ([]byte, error) {
	if u.table == "" {
		return nil, errors.New("no table")
	}
	b = append(b, "UPDATE "...)
	b = append(b, u.table...)
	return strconv.AppendInt(b, int64(u.id), 10), nil
}

func kmExec(c *kmStmtCache, table string, id int) (int, error) {
	qb := kmQueryPool.Get().(*kmQueryBuf)
	defer kmPutQuery(qb)
	b, err := (&kmUpdate{table, id}).render(qb.b)
	if err != nil {
		return 0, err
	}
	qb.update(b)
	return c.exec(kmString(b)), nil // want `qb, or memory of it, is passed here to a call that keeps it in a map`
}

// The fix: the cache gets a copy; silent.
func kmExec2(c *kmStmtCache, table string, id int) (int, error) {
	qb := kmQueryPool.Get().(*kmQueryBuf)
	defer kmPutQuery(qb)
	b, err := (&kmUpdate{table, id}).render(qb.b)
	if err != nil {
		return 0, err
	}
	qb.update(b)
	return c.exec(string(b)), nil
}
