package synth

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

var (
	data   = []byte(strings.Repeat("level=info msg=\"request served\" status=200 ", 100))
	fields = strings.Fields(strings.Repeat("key=value user=alice path=/api/v1/items latency=1.2ms ", 20))
	sinkB  byte
)

func BenchmarkGzip(b *testing.B) {
	for range b.N {
		Compress(io.Discard, data)
	}
}

func BenchmarkFormat(b *testing.B) {
	for range b.N {
		for range 20 {
			Format(io.Discard, fields)
		}
	}
}

func BenchmarkScratch(b *testing.B) {
	for i := range b.N {
		for j := range 16 {
			sinkB ^= Scratch(64 << ((i + j) % 11))
		}
	}
}

func BenchmarkCache(b *testing.B) {
	c := NewCache()
	for i := range b.N {
		for j := range 100 {
			c.Fill(i*100 + j)
		}
	}
}

func BenchmarkTiny(b *testing.B) {
	for i := range b.N {
		for j := range 2000 {
			Move(int64(i + j))
		}
	}
}

func BenchmarkWords(b *testing.B) {
	for range b.N {
		for range 20 {
			CountWords(bytes.NewReader(data))
		}
	}
}

func BenchmarkIndex(b *testing.B) {
	for range b.N {
		Index(2000)
	}
}

// BenchmarkLocalCache keeps everything it makes in a map that lives as
// long as the benchmark: dead when the profile is written, but retained.
func BenchmarkLocalCache(b *testing.B) {
	cache := map[int][]byte{}
	for i := range b.N {
		for j := range 500 {
			cache[i*500+j] = make([]byte, 256) // want dont-pool []byte
		}
	}
}

var sinkBuf []byte

// BenchmarkSink keeps each buffer in a package-level sink until the next
// one replaces it, as benchmarks do: the buffers are not retained.
func BenchmarkSink(b *testing.B) {
	for i := range b.N {
		for j := range 16 {
			sinkBuf = make([]byte, 64<<((i+j)%11)) // want bytepool []byte
		}
	}
}
