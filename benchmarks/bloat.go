package benchmarks

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"io"
	"sync/atomic"

	libp2p "github.com/libp2p/go-buffer-pool"
	"github.com/poolkit/pool/bytepool"
	"github.com/valyala/bytebufferpool"
	"google.golang.org/grpc/mem"
)

// bloat fills buffers of mostly small sizes (64 B to 4 KiB, log-uniform)
// and now and then (1 in 100) a huge one (4 MiB), from 8 goroutines, then
// stops. The figure that matters is retained heap: what the strategy
// still holds after the work stopped and one GC cycle ran. sync.Pool with
// bytes.Buffer (its documentation's pattern) keeps the huge buffers
// (golang/go#23199); size-classed and capacity-checked pools do not.
// Pooling pays when it is faster than allocating (Gate); among the pools
// that pay, the verdict ranks by retained heap, then time.
var _ = register(&Workload{
	Name:       "bloat",
	Doc:        "mostly small, 1% huge buffers from 8 goroutines: retained heap",
	Goroutines: 8,
	GetsPerOp:  1,
	Metric:     "retained-B",
	Also:       []string{"ns/op"},
	Gate:       []string{"ns/op"},
	Baseline:   "syncpool",
	Project:    []string{"bytepool", "poolkeep", "pool"},
	Strategies: bloatKit.strategies(bloatBufferOp,
		Strategy{Name: "poolkeep", Doc: "pool.Pool[*bytes.Buffer] with Keep refusing buffers over 64 KiB", New: bloatPoolKeep},
		Strategy{Name: "bytebufferpool", Doc: "valyala/bytebufferpool's calibrating pool", New: bloatByteBufferPool, GivesUp: givesUpByteBufferPool},
		Strategy{Name: "bytepool", Doc: "a private bytepool.Pool (size classes, 1 MiB MaxSize, byte budget)", New: bloatBytepool},
		Strategy{Name: "libp2p", Doc: "libp2p/go-buffer-pool: power-of-two classes over sync.Pool", New: bloatLibp2p,
			GivesUp: "no stats, no bound; sync.Pool underneath, so idle buffers (huge ones too) stay until two GC cycles pass"},
		Strategy{Name: "grpcmem", Doc: "google.golang.org/grpc/mem tiered pool with gRPC's default tiers", New: bloatGRPC,
			GivesUp: "no stats, no bound on the fallback pool for buffers over 1 MiB; sync.Pool underneath"},
	),
})

var bloatKit = kit[*bytes.Buffer]{
	new:     func() *bytes.Buffer { return new(bytes.Buffer) },
	reset:   (*bytes.Buffer).Reset,
	maxIdle: 64,
}

const bloatHuge = 4 << 20

// bloatSize is the size operation i writes: 4 MiB when i%100 == 99, else
// log-uniform in [64, 4096) from a hash of i.
func bloatSize(i int) int {
	if i%100 == 99 {
		return bloatHuge
	}
	h := uint64(i)*0x9E3779B97F4A7C15 + 1
	h ^= h >> 29
	// 6 doublings from 64: exponent 6..11, then a fraction of that doubling.
	e := 6 + int(h%6)
	frac := int(h>>8) & (1<<e - 1)
	return 1<<e + frac
}

// bloatChunk is the data written, 1 KiB at a time.
var bloatChunk = func() []byte {
	b := make([]byte, 1024)
	for i := range b {
		b[i] = byte(i*7 + i>>8)
	}
	return b
}()

// writeBloat writes n bytes of bloatChunk's pattern to b.
func writeBloat(b io.Writer, n int) {
	for n > 0 {
		k := min(n, len(bloatChunk))
		b.Write(bloatChunk[:k])
		n -= k
	}
}

// fillBloat fills b with the same pattern as writeBloat.
func fillBloat(b []byte) {
	for off := 0; off < len(b); off += len(bloatChunk) {
		copy(b[off:], bloatChunk)
	}
}

// reportBloat writes the length and checksum of b to out.
func reportBloat(out io.Writer, b []byte) {
	if out != nil {
		fmt.Fprintf(out, "%d %08x\n", len(b), crc32.ChecksumIEEE(b))
	}
}

func bloatBufferOp(src source[*bytes.Buffer], out io.Writer) (func(int), func()) {
	return func(i int) {
		b := src.Get()
		writeBloat(b, bloatSize(i))
		reportBloat(out, b.Bytes())
		src.Put(b)
	}, nil
}

func bloatPoolKeep(out io.Writer) Instance {
	s := newPoolSource(bloatKit, 0)
	s.p.Keep = func(b *bytes.Buffer) bool { return b.Cap() <= 64<<10 }
	op, _ := bloatBufferOp(s, out)
	return Instance{Op: op, Misses: s.Misses}
}

func bloatByteBufferPool(out io.Writer) Instance {
	p := new(bytebufferpool.Pool)
	var misses atomic.Uint64
	return Instance{Op: func(i int) {
		b := p.Get()
		if cap(b.B) == 0 {
			misses.Add(1)
		}
		writeBloat(b, bloatSize(i))
		reportBloat(out, b.B)
		p.Put(b)
	}, Misses: misses.Load}
}

// bloatSlices runs the operation on a pool of []byte whose get(n)
// returns len n; misses is nil when the pool cannot say.
func bloatSlices(out io.Writer, get func(int) []byte, put func([]byte), misses func() uint64) Instance {
	return Instance{Op: func(i int) {
		b := get(bloatSize(i))
		fillBloat(b)
		reportBloat(out, b)
		put(b)
	}, Misses: misses}
}

func bloatBytepool(out io.Writer) Instance {
	p := new(bytepool.Pool)
	return bloatSlices(out, p.Get, p.Put, func() uint64 { return p.Stats().Misses })
}

// bloatLibp2p uses a private BufferPool (not the global one), so runs do
// not share it.
func bloatLibp2p(out io.Writer) Instance {
	p := new(libp2p.BufferPool)
	return bloatSlices(out, p.Get, p.Put, nil)
}

// bloatGRPC uses a private tiered pool with the tiers of gRPC's default
// pool (256 B, 4 KiB, 16 KiB, 32 KiB, 1 MiB); larger buffers go to its
// fallback pool.
func bloatGRPC(out io.Writer) Instance {
	p, err := mem.NewBinaryTieredBufferPool(8, 12, 14, 15, 20)
	if err != nil {
		panic("bloat: " + err.Error())
	}
	// Get hands out a *[]byte; giving that same pointer back to Put
	// avoids allocating a new one per Put.
	return Instance{Op: func(i int) {
		bp := p.Get(bloatSize(i))
		fillBloat(*bp)
		reportBloat(out, *bp)
		p.Put(bp)
	}}
}
