package main

import (
	"bytes"
	"testing"
)

var line = bytes.Repeat([]byte("GET /index.html 200 "), 50)

func BenchmarkCompress(b *testing.B) {
	for range b.N {
		compress(line)
	}
}
