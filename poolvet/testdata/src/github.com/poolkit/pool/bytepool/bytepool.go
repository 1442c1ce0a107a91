// Package bytepool is a small stand-in for github.com/poolkit/pool/bytepool.
package bytepool

// Get returns a slice of length n.
func Get(n int) []byte { return make([]byte, n) }

// Zeroed returns a zeroed slice of length n.
func Zeroed(n int) []byte { return make([]byte, n) }

// Put returns b to the pool.
func Put(b []byte) {}

// Pool is a size-classed byte pool.
type Pool struct{ budget int }

// Get returns a slice of length n.
func (p *Pool) Get(n int) []byte { return make([]byte, n) }

// Put returns b to the pool.
func (p *Pool) Put(b []byte) {}

// GetBuffer returns an empty Buffer.
func (p *Pool) GetBuffer() *Buffer { return new(Buffer) }

// Buffer is a pooled growable buffer.
type Buffer struct{ buf []byte }

// GetBuffer returns an empty Buffer from the default pool.
func GetBuffer() *Buffer { return new(Buffer) }

// Bytes returns the contents; valid until Free.
func (b *Buffer) Bytes() []byte { return b.buf }

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) { b.buf = append(b.buf, p...); return len(p), nil }

// Len returns the number of bytes written.
func (b *Buffer) Len() int { return len(b.buf) }

// Cap returns the capacity of the buffer.
func (b *Buffer) Cap() int { return cap(b.buf) }

// Free returns b to its pool.
func (b *Buffer) Free() {}
