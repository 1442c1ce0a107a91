package bug

import "time"

type datapoint struct {
	t time.Time
	v float64
}

// MultiReaderIterator iterates merged streams.
type MultiReaderIterator struct {
	points []datapoint
	idx    int
	pool   chan *MultiReaderIterator
}

func (it *MultiReaderIterator) Reset(streams [][]datapoint) {
	it.points = it.points[:0]
	for _, s := range streams {
		it.points = append(it.points, s...)
	}
	it.idx = -1
}

func (it *MultiReaderIterator) Next() bool {
	it.idx++
	return it.idx < len(it.points)
}

func (it *MultiReaderIterator) Current() datapoint { return it.points[it.idx] }

func (it *MultiReaderIterator) Err() error { return nil }

func (it *MultiReaderIterator) Close() {
	it.points = it.points[:0]
	select {
	case it.pool <- it:
	default:
	}
}

type bufferOptions struct {
	encoderPool  EncoderPool
	iteratorPool chan *MultiReaderIterator
	allocSize    int
}

type dbBuffer struct {
	opts    bufferOptions
	buckets map[time.Time][][]datapoint
}

// PersistFn persists a segment.
type PersistFn func(id string, segment Segment) error

func (b *dbBuffer) getIterator() *MultiReaderIterator {
	select {
	case it := <-b.opts.iteratorPool:
		return it
	default:
		return &MultiReaderIterator{pool: b.opts.iteratorPool}
	}
}

// Snapshot merges the buckets for blockStart and persists them.
func (b *dbBuffer) Snapshot(id string, blockStart time.Time, persistFn PersistFn) (bool, error) {
	streams, exists := b.buckets[blockStart]
	if !exists || len(streams) == 0 {
		return false, nil
	}

	var (
		mergeAcrossBuckets = len(streams) != 1
		segment            Segment
	)
	if !mergeAcrossBuckets {
		segment = Segment{Head: flatten(streams[0])}
	} else {
		encoder := b.opts.encoderPool.Get()
		encoder.Reset(blockStart, b.opts.allocSize)
		iter := b.getIterator()
		defer func() {
			encoder.Close() // want `doubleput`
			iter.Close()
		}()
		iter.Reset(streams)

		for iter.Next() {
			dp := iter.Current()
			if err := encoder.Encode(dp.t, dp.v); err != nil {
				return false, err
			}
		}
		if err := iter.Err(); err != nil {
			return false, err
		}

		segment = encoder.Discard()
	}

	if segment.Len() == 0 {
		// Don't write out series with no data.
		return false, nil
	}

	if err := persistFn(id, segment); err != nil {
		return false, err
	}
	return true, nil
}

func flatten(points []datapoint) []byte {
	out := make([]byte, 0, 2*len(points))
	for _, p := range points {
		out = append(out, byte(p.t.Unix()), byte(p.v))
	}
	return out
}
