// Package synth allocates in the ways pooladvise must tell apart. Each
// allocating line says, in a want comment, the verdict and type expected.
package synth

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
)

// Compress builds a gzip.Writer per call: ~800 KB, short-lived. It returns
// zw.Close()'s error, which does not hand out the writer.
func Compress(out io.Writer, data []byte) error {
	zw := gzip.NewWriter(out) // want pool *gzip.Writer
	zw.Write(data)
	return zw.Close()
}

// Format builds a log line in a new buffer per call.
func Format(w io.Writer, fields []string) {
	buf := new(bytes.Buffer) // want pool *bytes.Buffer
	for _, f := range fields {
		buf.WriteString(f)
		buf.WriteByte(' ')
	}
	w.Write(buf.Bytes())
}

// Scratch needs a scratch slice whose size varies from 64 B to 64 KiB.
func Scratch(n int) byte {
	b := make([]byte, n) // want bytepool []byte
	for i := range b {
		b[i] = byte(i)
	}
	return b[n/2]
}

// Cache keeps every value it is given: its allocations stay live.
type Cache struct{ m map[int][]byte }

func NewCache() *Cache { return &Cache{m: map[int][]byte{}} }

func (c *Cache) Fill(k int) {
	v := make([]byte, 512) // want dont-pool []byte
	v[0] = byte(k)
	c.m[k] = v
}

// Point is tiny: allocating one costs about as much as a pool round trip.
type Point struct{ X, Y, Z int64 }

var sink *Point

func Move(i int64) {
	sink = &Point{i, i, i} // want dont-pool *synth.Point
}

// CountWords builds a bufio.Scanner per call around its reader: a Scanner
// has no Reset, so a pool could not point it at the next reader.
func CountWords(r io.Reader) int {
	sc := bufio.NewScanner(r) // want dont-pool *bufio.Scanner
	sc.Split(bufio.ScanWords)
	n := 0
	for sc.Scan() {
		n++
	}
	return n
}

// Index builds a map per call: it grows as it fills, and keeps what it
// is given.
func Index(n int) int {
	idx := map[int]int{}
	for i := range n {
		idx[i*7] = i // want dont-pool map[int]int
	}
	return len(idx)
}
