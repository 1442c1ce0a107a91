// Source: https://github.com/m3db/m3/commit/6459dd7dc66db1bab40e5253aee8fdfe9ae4eda4
// (m3metrics, "Clear iterators before putting them back into pools")
//
// Bug: the msgpack aggregated and unaggregated iterators are pooled. Their
// Close method marked the iterator closed and put it straight back into its
// iterator pool, keeping the decoder bound to the last caller's reader and
// the last decoded metric (raw metric bytes, policies) alive inside the
// pooled iterator until it is reused.
//
// Fix: before Put, Close resets the iterator onto an empty reader and resets
// the current metric (and, for the unaggregated iterator, the versioned
// policies).
//
// Check: noreset (at the iteratorPool.Put in each Close: the iterator goes
// back to the pool still holding the reader and the decoded metric)
package bug

import (
	"bufio"
	"encoding/binary"
	"io"
)

// decoder is a trimmed msgpack.Decoder.
type decoder struct {
	r *bufio.Reader
}

func newDecoder(r io.Reader) *decoder {
	return &decoder{r: bufio.NewReader(r)}
}

func (d *decoder) Reset(r io.Reader) {
	d.r.Reset(r)
}

func (d *decoder) DecodeBytes() ([]byte, error) {
	n, err := binary.ReadUvarint(d.r)
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	_, err = io.ReadFull(d.r, b)
	return b, err
}

func (d *decoder) DecodeVarint() (int64, error) {
	return binary.ReadVarint(d.r)
}

type iteratorBase interface {
	reset(reader io.Reader)
	err() error
	setErr(err error)
	decodeBytes() []byte
	decodeVarint() int64
}

// baseIterator is the base iterator that provides common decoding APIs
type baseIterator struct {
	decoder   *decoder
	decodeErr error
}

func newBaseIterator(reader io.Reader) iteratorBase {
	return &baseIterator{decoder: newDecoder(reader)}
}

func (it *baseIterator) reset(reader io.Reader) {
	it.decoder.Reset(reader)
	it.decodeErr = nil
}

func (it *baseIterator) err() error       { return it.decodeErr }
func (it *baseIterator) setErr(err error) { it.decodeErr = err }

func (it *baseIterator) decodeBytes() []byte {
	if it.decodeErr != nil {
		return nil
	}
	b, err := it.decoder.DecodeBytes()
	it.decodeErr = err
	return b
}

func (it *baseIterator) decodeVarint() int64 {
	if it.decodeErr != nil {
		return 0
	}
	v, err := it.decoder.DecodeVarint()
	it.decodeErr = err
	return v
}
