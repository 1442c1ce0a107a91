// Package bug reproduces the shape of json-iterator/go#387
// (https://github.com/json-iterator/go/issues/387, "UnmarshalJSON memory
// leak"): the Iterator borrowed from the config's pool keeps the caller's
// input slice in its buf field, and ReturnIterator only clears Error and
// Attachment before putting it back. An idle pooled Iterator therefore pins
// the last (possibly huge) input the library was asked to parse.
//
// Check: noreset (a pooled object keeps a reference to data a user passed
// in: the Get helper stores the caller's slice, the Put helper does not drop
// it).
package bug

import "sync"

type frozenConfig struct {
	iteratorPool *sync.Pool
}

// Iterator reads a JSON document held in buf[head:tail].
type Iterator struct {
	cfg        *frozenConfig
	buf        []byte
	head       int
	tail       int
	Error      error
	Attachment any
}

func (cfg *frozenConfig) initCache() {
	cfg.iteratorPool = &sync.Pool{
		New: func() any {
			return &Iterator{cfg: cfg}
		},
	}
}

var ConfigDefault = func() *frozenConfig {
	cfg := &frozenConfig{}
	cfg.initCache()
	return cfg
}()

// ResetBytes points the iterator at a new input; the slice is not copied.
func (iter *Iterator) ResetBytes(input []byte) *Iterator {
	iter.buf = input
	iter.head = 0
	iter.tail = len(input)
	return iter
}

func (cfg *frozenConfig) BorrowIterator(data []byte) *Iterator {
	iter := cfg.iteratorPool.Get().(*Iterator)
	iter.ResetBytes(data)
	return iter
}

func (cfg *frozenConfig) ReturnIterator(iter *Iterator) {
	iter.Error = nil
	iter.Attachment = nil
	cfg.iteratorPool.Put(iter) // want `noreset`
}

type parseError struct{ at int }

func (e *parseError) Error() string { return "jsoniter: expected a number" }

// ReadInt reads a non-negative decimal number.
func (iter *Iterator) ReadInt() int {
	n := 0
	read := false
	for iter.head < iter.tail {
		c := iter.buf[iter.head]
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
		iter.head++
		read = true
	}
	if !read {
		iter.Error = &parseError{at: iter.head}
	}
	return n
}

// UnmarshalInt decodes data into *v through a pooled iterator.
func (cfg *frozenConfig) UnmarshalInt(data []byte, v *int) error {
	iter := cfg.BorrowIterator(data)
	defer cfg.ReturnIterator(iter)
	*v = iter.ReadInt()
	return iter.Error
}
