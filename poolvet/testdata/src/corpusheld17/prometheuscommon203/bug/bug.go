// Package bug reproduces the shape of prometheus/common#203
// (https://github.com/prometheus/common/pull/203, "Reduce sync pool byte
// growth with bufio Writers"): when the output writer is not an
// enhancedWriter, expfmt's MetricFamilyToText renders the whole family into
// a *bytes.Buffer from a sync.Pool and copies it out at the end. The buffer
// grows to the size of the largest family ever rendered and goes back to the
// pool with no size limit, so services with many metrics saw the heap grow
// (golang/go#23199). The PR replaced the buffer by a fixed-size bufio.Writer.
//
// Check: unbounded (a growable *bytes.Buffer is put back into a sync.Pool
// with no size check, from a deferred closure).
package bug

import (
	"bytes"
	"io"
	"strconv"
	"sync"
)

// enhancedWriter has all the enhanced write functions needed here.
// bytes.Buffer implements it.
type enhancedWriter interface {
	io.Writer
	WriteRune(r rune) (n int, err error)
	WriteString(s string) (n int, err error)
	WriteByte(c byte) error
}

const initialBufSize = 512

var bufPool = sync.Pool{
	New: func() any {
		return bytes.NewBuffer(make([]byte, 0, initialBufSize))
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

	// Try the interface upgrade. If it doesn't work, use a bytes.Buffer from
	// the pool and write its content to out in one go at the end.
	w, ok := out.(enhancedWriter)
	if !ok {
		b := bufPool.Get().(*bytes.Buffer)
		b.Reset()
		w = b
		defer func() {
			bWritten, bErr := out.Write(b.Bytes())
			written = bWritten
			if err == nil {
				err = bErr
			}
			bufPool.Put(b) // want `unbounded`
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
