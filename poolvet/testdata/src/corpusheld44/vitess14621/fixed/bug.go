// Package bug reproduces the shape of vitessio/vitess#14621
// (https://github.com/vitessio/vitess/pull/14621, fixes #14587): the
// unicode_loose_* vindexes take a pooledCollator (a collator paired with its
// key buffer) from a sync.Pool, compute a collation key into the buffer and
// hand the pair back with a deferred Put. The buffer is never reset, so every
// key computed with a pooled collator is appended after the previous ones and
// the pooled buffers grow without end (vtgates using GBs of memory).
// The fix resets the buffer before the collator goes back to the pool.
// Check: noreset (collator put back with its key buffer still holding earlier
// keys), reported at the deferred Put in unicodeHash.
// Fixed twin: the buffer is reset in the deferred function before the Put.
package bug

import (
	"bytes"
	"crypto/md5"
	"fmt"
	"sync"
	"unicode"
	"unicode/utf8"
)

const maxRetainedKeyBuf = 64 << 10

// keyBuffer plays the role of collate.Buffer: keys are appended to it and
// the returned key aliases its storage until Reset is called.
type keyBuffer struct {
	key []byte
}

func (b *keyBuffer) Reset() {
	if cap(b.key) > maxRetainedKeyBuf {
		b.key = nil
		return
	}
	b.key = b.key[:0]
}

// collator plays the role of collate.Collator with the Loose option.
type collator struct {
	foldCase bool
}

func (c *collator) Key(buf *keyBuffer, in []byte) []byte {
	start := len(buf.key)
	for len(in) > 0 {
		r, n := utf8.DecodeRune(in)
		in = in[n:]
		if c.foldCase {
			r = unicode.ToLower(r)
		}
		buf.key = utf8.AppendRune(buf.key, r)
	}
	return buf.key[start:]
}

// pooledCollator pairs a collator and a buffer so that neither is allocated
// per request; callers must not keep references into buf after the Put.
type pooledCollator struct {
	col *collator
	buf *keyBuffer
}

var collatorPool = sync.Pool{New: newPooledCollator}

func newPooledCollator() interface{} {
	return &pooledCollator{
		col: &collator{foldCase: true},
		buf: new(keyBuffer),
	}
}

func unicodeHash(hashFunc func([]byte) []byte, key []byte) ([]byte, error) {
	collator := collatorPool.Get().(*pooledCollator)
	defer func() {
		collator.buf.Reset()
		collatorPool.Put(collator)
	}()

	norm, err := normalize(collator.col, collator.buf, key)
	if err != nil {
		return nil, err
	}
	return hashFunc(norm), nil
}

func normalize(col *collator, buf *keyBuffer, in []byte) ([]byte, error) {
	if !utf8.Valid(in) {
		return nil, fmt.Errorf("cannot normalize string containing invalid UTF-8: %q", string(in))
	}
	// Trailing spaces are ignored by MySQL.
	in = bytes.TrimRight(in, " ")
	return col.Key(buf, in), nil
}

func binHash(in []byte) []byte {
	sum := md5.Sum(in)
	return sum[:]
}

// UnicodeLooseMD5 is a vindex that hashes the loose collation key.
type UnicodeLooseMD5 struct {
	name string
}

func (vind *UnicodeLooseMD5) Map(ids [][]byte) ([][]byte, error) {
	out := make([][]byte, 0, len(ids))
	for _, id := range ids {
		ksid, err := unicodeHash(binHash, id)
		if err != nil {
			return nil, err
		}
		out = append(out, ksid)
	}
	return out, nil
}
