package unbounded

import (
	"bytes"
	"compress/gzip"
	"sync"
)

type gzBuf struct {
	out *bytes.Buffer
	zw  *gzip.Writer
}

var gzBufPool = sync.Pool{New: func() any {
	out := new(bytes.Buffer)
	return &gzBuf{out: out, zw: gzip.NewWriter(out)}
}}

// The buffer field is the gzip writer's output, as big as the input makes
// it (k0sproject/rig#350).
func gzipString(s string) []byte {
	g := gzBufPool.Get().(*gzBuf)
	g.out.Reset()
	g.zw.Reset(g.out)
	g.zw.Write([]byte(s))
	g.zw.Close()
	b := bytes.Clone(g.out.Bytes())
	gzBufPool.Put(g) // want `g \(\*gzBuf\) is put into the pool without a capacity check, and its field out grows without bound`
	return b
}

type gzBufBounded struct {
	out *bytes.Buffer
	zw  *gzip.Writer
}

var gzBoundedPool = sync.Pool{New: func() any {
	out := new(bytes.Buffer)
	return &gzBufBounded{out: out, zw: gzip.NewWriter(out)}
}}

// Bounded by the output's capacity: silent.
func gzipStringBounded(s string) []byte {
	g := gzBoundedPool.Get().(*gzBufBounded)
	g.out.Reset()
	g.zw.Reset(g.out)
	g.zw.Write([]byte(s))
	g.zw.Close()
	b := bytes.Clone(g.out.Bytes())
	if g.out.Cap() <= 64<<10 {
		gzBoundedPool.Put(g)
	}
	return b
}
