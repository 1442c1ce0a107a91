package unbounded

import (
	"bytes"
	"crypto/sha256"
	"io"
	"sync"
)

var encPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type node struct {
	key, value []byte
	children   []*node
}

func (n *node) encode(w io.Writer) {
	w.Write(n.key)
	w.Write(n.value)
	for _, c := range n.children {
		w.Write(c.hash())
	}
}

// A size test after a Put deferred as it is decides nothing about it: the
// encoding is as large as the node (ChainSafe/gossamer#2929).
func (n *node) hash() []byte {
	b := encPool.Get().(*bytes.Buffer)
	b.Reset()
	defer encPool.Put(b) // want `b \(\*bytes.Buffer\) is put into the pool without a capacity check`
	n.encode(b)
	if b.Len() < 32 {
		return append([]byte(nil), b.Bytes()...)
	}
	sum := sha256.Sum256(b.Bytes())
	return sum[:]
}

// A size test before the defer skips it: silent.
func (n *node) hashSmall() []byte {
	b := encPool.Get().(*bytes.Buffer)
	b.Reset()
	n.encode(b)
	if b.Cap() > 1<<16 {
		return nil
	}
	defer encPool.Put(b)
	sum := sha256.Sum256(b.Bytes())
	return sum[:]
}

// A deferred closure tests the size when it runs: silent.
func (n *node) hashClosure() []byte {
	b := encPool.Get().(*bytes.Buffer)
	b.Reset()
	defer func() {
		if b.Cap() <= 1<<16 {
			encPool.Put(b)
		}
	}()
	n.encode(b)
	sum := sha256.Sum256(b.Bytes())
	return sum[:]
}
