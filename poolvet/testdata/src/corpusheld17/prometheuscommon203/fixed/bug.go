// Package fixed is the fixed twin of prometheus/common#203
// (https://github.com/prometheus/common/pull/203): as in the PR, the pool
// holds fixed-size *bufio.Writer values that stream to out instead of
// growing buffers; the writer is pointed back at io.Discard before the Put
// so the idle writer does not keep the caller's out alive either.
package fixed

import (
	"bufio"
	"io"
	"strconv"
	"sync"
)

// enhancedWriter has all the enhanced write functions needed here.
// bufio.Writer implements it.
type enhancedWriter interface {
	io.Writer
	WriteRune(r rune) (n int, err error)
	WriteString(s string) (n int, err error)
	WriteByte(c byte) error
}

var bufPool = sync.Pool{
	New: func() any {
		return bufio.NewWriter(io.Discard)
	},
}

type Label struct {
	Name, Value string
}

type Metric struct {
	Labels []Label
	Value  float64
}

type MetricFamily struct {
	Name   string
	Help   string
	Metric []Metric
}

// MetricFamilyToText writes the family in the text exposition format.
func MetricFamilyToText(out io.Writer, in *MetricFamily) (written int, err error) {
	if len(in.Metric) == 0 {
		return 0, nil
	}

	// Try the interface upgrade. If it doesn't work, wrap out in a
	// bufio.Writer from the pool and flush it at the end.
	w, ok := out.(enhancedWriter)
	if !ok {
		b := bufPool.Get().(*bufio.Writer)
		b.Reset(out)
		w = b
		defer func() {
			bErr := b.Flush()
			if err == nil {
				err = bErr
			}
			b.Reset(io.Discard)
			bufPool.Put(b)
		}()
	}

	var n int
	if in.Help != "" {
		n, err = w.WriteString("# HELP " + in.Name + " " + in.Help + "\n")
		written += n
		if err != nil {
			return
		}
	}
	for _, m := range in.Metric {
		n, err = writeSample(w, in.Name, m)
		written += n
		if err != nil {
			return
		}
	}
	return
}

func writeSample(w enhancedWriter, name string, m Metric) (int, error) {
	written := 0
	n, err := w.WriteString(name)
	written += n
	if err != nil {
		return written, err
	}
	if len(m.Labels) > 0 {
		if err := w.WriteByte('{'); err != nil {
			return written, err
		}
		written++
		for i, l := range m.Labels {
			if i > 0 {
				if err := w.WriteByte(','); err != nil {
					return written, err
				}
				written++
			}
			n, err = w.WriteString(l.Name + "=" + strconv.Quote(l.Value))
			written += n
			if err != nil {
				return written, err
			}
		}
		if err := w.WriteByte('}'); err != nil {
			return written, err
		}
		written++
	}
	n, err = w.WriteString(" " + strconv.FormatFloat(m.Value, 'g', -1, 64) + "\n")
	written += n
	return written, err
}
