package bytepool_test

import (
	"fmt"
	"log/slog"
	"os"
	"strconv"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
)

func ExampleGet() {
	b := bytepool.Get(1000) // len 1000; the contents are not zeroed
	fmt.Println(len(b), cap(b))
	n := copy(b, "hello")
	fmt.Println(string(b[:n]))
	bytepool.Put(b) // b must not be used after this
	// Output:
	// 1000 1024
	// hello
}

func ExampleZeroed() {
	b := bytepool.Zeroed(20)
	fmt.Println(b)
	bytepool.Put(b)
	// Output:
	// [0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0]
}

// A Pool with a small budget drops what does not fit, and never keeps
// slices above MaxSize.
func ExamplePool_Stats() {
	p := bytepool.Pool{MaxSize: 64 << 10, MaxBytes: 8 << 10}
	for range 3 {
		p.Put(make([]byte, 4<<10)) // the third would exceed 8 KiB
	}
	p.Put(make([]byte, 1<<20)) // above MaxSize
	st := p.Stats()
	var c bytepool.ClassStats
	for _, c = range st.Classes {
		if c.Size == 4<<10 {
			break
		}
	}
	fmt.Println("puts:", st.Puts, "of 4 KiB:", c.Puts)
	fmt.Println("too large:", st.Drops.TooLarge)
	// Without the race detector: 2 kept, 1 over budget. Under it, the
	// engine also drops Puts at random (Drops.Random).
	fmt.Println("kept + over budget + random:", uint64(c.Idle)+c.Drops.Budget+c.Drops.Random)
	fmt.Println("within budget:", st.IdleBytes <= 8<<10)
	// Output:
	// puts: 4 of 4 KiB: 3
	// too large: 1
	// kept + over budget + random: 3
	// within budget: true
}

// Formatting a log line into a pooled Buffer: strconv appends straight into
// the Buffer's free space, so nothing is allocated.
func ExampleBuffer() {
	b := bytepool.GetBuffer()
	b.WriteString("ts=")
	b.Write(strconv.AppendInt(b.AvailableBuffer(), 1700000000, 10))
	b.WriteString(" level=info msg=")
	b.Write(strconv.AppendQuote(b.AvailableBuffer(), "request served"))
	b.WriteByte('\n')
	b.WriteTo(os.Stdout)
	b.Free() // b must not be used after this
	// Output:
	// ts=1700000000 level=info msg="request served"
}

func ExampleBuffer_Grow() {
	var p bytepool.Pool
	b := p.GetBuffer()
	b.Grow(100) // a new Buffer of a new Pool holds 64 bytes: double them
	fmt.Println(b.Len(), b.Cap())
	b.WriteString("payload")
	b.Grow(500) // 507 bytes do not fit in 128: the class of max(507, 2*128)
	fmt.Println(b.Len(), b.Cap(), b.String())
	b.Free()
	// Output:
	// 0 128
	// 7 512 payload
}

func ExampleBuffer_Truncate() {
	b := bytepool.GetBuffer()
	defer b.Free()
	b.WriteString("key=value,")
	b.Truncate(b.Len() - 1)
	fmt.Println(b.String())
	// Output:
	// key=value
}

// Routing debug reports to log/slog: with POOLDEBUG=poison=1 (here set with
// pool.SetDebug), a write to a slice after Put is reported by the Get that
// would have handed it out again, and with a reporter set that Get returns
// a fresh slice instead of panicking.
func Example_slogReporter() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{} // drop the time, for a stable output
			}
			return a
		},
	}))
	reported := false
	pool.SetReporter(func(r pool.Report) {
		reported = true
		logger.Warn(r.Message, "kind", r.Kind, "type", r.Type)
	})
	defer pool.SetReporter(nil)
	defer pool.SetDebug(pool.SetDebug("poison=1"))

	var p bytepool.Pool
	var b []byte
	// The loop is for the race detector, which drops Puts at random:
	// without it, the first round reports.
	for i := 0; !reported && i < 100; i++ {
		b = p.Get(100)
		p.Put(b)
		b[0] = 'x' // the bug: b is used after Put
		b = p.Get(100)
	}
	fmt.Println(len(b), cap(b)) // a fresh slice
	p.Put(b)
	// Output:
	// level=WARN msg="bytepool.Get: []byte (cap 112) modified after Put: byte 0 is 0x78; want 0xa5" kind="modified after Put" type=[]byte
	// 100 112
}
