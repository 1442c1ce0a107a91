package noreset

import "sync"

// A pooled *[]E whose elements hold slices of their own (a series' label
// set), grown by a decode helper that appends to the slice it is given,
// then truncated and put back (prometheus/prometheus#17895).

type walLabel struct{ name, value string }

type walSeries struct {
	ref    uint64
	labels []walLabel
}

var walSeriesPool = sync.Pool{New: func() any {
	s := make([]walSeries, 0, 64)
	return &s
}}

// decodeWal appends one series per record byte to dst.
func decodeWal(rec []byte, dst []walSeries) ([]walSeries, error) {
	for _, b := range rec {
		dst = append(dst, walSeries{ref: uint64(b), labels: []walLabel{{"ref", string(rune(b))}}})
	}
	return dst, nil
}

var walHead = map[uint64][]walLabel{}

func replayWal(records [][]byte) error {
	for _, rec := range records {
		sp := walSeriesPool.Get().(*[]walSeries)
		series, err := decodeWal(rec, (*sp)[:0])
		if err != nil {
			return err
		}
		for _, s := range series {
			walHead[s.ref] = s.labels
		}
		*sp = series[:0]
		if cap(*sp) <= 4096 {
			walSeriesPool.Put(sp) // want `noreset`
		}
	}
	return nil
}

func replayWalCleared(records [][]byte) error {
	for _, rec := range records {
		sp := walSeriesPool.Get().(*[]walSeries)
		series, err := decodeWal(rec, (*sp)[:0])
		if err != nil {
			return err
		}
		for _, s := range series {
			walHead[s.ref] = s.labels
		}
		clear(series)
		*sp = series[:0]
		if cap(*sp) <= 4096 {
			walSeriesPool.Put(sp)
		}
	}
	return nil
}

// reuseWalSeries only truncates: the label slices of the elements may be
// reused by the next user on purpose.
func reuseWalSeries(sp *[]walSeries) {
	*sp = (*sp)[:0]
	walSeriesPool.Put(sp)
}
