// Package bug reproduces the shape of dgrr/http2 commit 8da461d
// (https://github.com/dgrr/http2/commit/8da461d2c70a1a274e6698d0e4ee371f2d6325bd,
// "Fixed bad reset"): HPACK decoder state (*HPack) is pooled per connection
// with AcquireHPack/ReleaseHPack. ReleaseHPack calls Reset before the Put,
// but Reset only released the dynamic-table fields and forgot the table
// size bookkeeping (tableSize, maxTableSize), so the next connection got an
// HPack that still carried the previous peer's negotiated limits and usage.
// The fix zeroes both fields in Reset.
//
// Check: noreset (HPack.Reset forgets tableSize and maxTableSize).
package bug

import (
	"io"
	"sync"
)

// HeaderField represents a field in HPACK tables.
type HeaderField struct {
	name, value []byte
	sensible    bool
}

// maxPooledField bounds the header field buffers kept in the pool.
const maxPooledField = 4096

var headerPool = sync.Pool{
	New: func() interface{} {
		return &HeaderField{}
	},
}

// AcquireHeaderField gets a HeaderField from the pool.
func AcquireHeaderField() *HeaderField {
	return headerPool.Get().(*HeaderField)
}

// ReleaseHeaderField puts a HeaderField back to the pool.
func ReleaseHeaderField(hf *HeaderField) {
	hf.Reset()
	if cap(hf.name) > maxPooledField || cap(hf.value) > maxPooledField {
		return
	}
	headerPool.Put(hf)
}

// Reset resets header field values.
func (hf *HeaderField) Reset() {
	hf.name = hf.name[:0]
	hf.value = hf.value[:0]
	hf.sensible = false
}

// CopyTo copies hf to hf2.
func (hf *HeaderField) CopyTo(hf2 *HeaderField) {
	hf2.name = append(hf2.name[:0], hf.name...)
	hf2.value = append(hf2.value[:0], hf.value...)
	hf2.sensible = hf.sensible
}

func (hf *HeaderField) size() int { return len(hf.name) + len(hf.value) + 32 }

// HPack holds the header compression state of one connection.
type HPack struct {
	// fields represents dynamic table fields
	fields       map[uint64]*HeaderField
	tableSize    int
	maxTableSize int
}

var hpackPool = sync.Pool{
	New: func() interface{} {
		return &HPack{
			fields: make(map[uint64]*HeaderField),
		}
	},
}

// AcquireHPack gets HPack from pool.
func AcquireHPack() *HPack {
	return hpackPool.Get().(*HPack)
}

// ReleaseHPack puts HPack to the pool.
func ReleaseHPack(hpack *HPack) {
	hpack.Reset()
	hpackPool.Put(hpack)
}

// Reset deletes and releases all dynamic header fields.
func (hpack *HPack) Reset() {
	for k, hf := range hpack.fields {
		ReleaseHeaderField(hf)
		delete(hpack.fields, k)
	}
	hpack.tableSize = 0
	hpack.maxTableSize = 0
}

// SetMaxTableSize sets the maximum dynamic table size.
func (hpack *HPack) SetMaxTableSize(size int) {
	hpack.maxTableSize = size
}

// Parse decodes one literal-with-incremental-indexing field and inserts it
// into the dynamic table while it fits.
func (hpack *HPack) Parse(b []byte) ([]byte, *HeaderField, error) {
	if len(b) < 3 {
		return b, nil, io.EOF
	}
	idx := uint64(b[0] & 63)
	nameLen, valueLen := int(b[1]), int(b[2])
	b = b[3:]
	if len(b) < nameLen+valueLen {
		return b, nil, io.ErrUnexpectedEOF
	}
	hf := AcquireHeaderField()
	hf.name = append(hf.name[:0], b[:nameLen]...)
	hf.value = append(hf.value[:0], b[nameLen:nameLen+valueLen]...)
	b = b[nameLen+valueLen:]

	if idx != 0 && (hpack.maxTableSize == 0 || hpack.tableSize+hf.size() <= hpack.maxTableSize) {
		field := AcquireHeaderField()
		hf.CopyTo(field)
		if old, ok := hpack.fields[idx]; ok {
			hpack.tableSize -= old.size()
			ReleaseHeaderField(old)
		}
		hpack.fields[idx] = field
		hpack.tableSize += field.size()
	}
	return b, hf, nil
}
