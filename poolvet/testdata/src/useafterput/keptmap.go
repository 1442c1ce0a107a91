package useafterput

import (
	"bytes"
	"io"
	"sync"
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
	fs.setAttr(uint64(in[0]), string(in[1:2]), in[2:]) // want `bufp, or memory of it, is passed here to a call that keeps it in a map \(keptmap.go:48\), and goes back to the pool with the deferred Put at line 71`
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
