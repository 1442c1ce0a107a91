// Package fixed is the twin of ../bug after ava-labs/avalanchego#2920
// (https://github.com/ava-labs/avalanchego/pull/2920): the pool keeps
// *[]byte, so putting a buffer back does not allocate a slice header.
package fixed

import "sync"

const defaultBufferLength = 256

type store interface {
	Get(key []byte) ([]byte, error)
}

type valueNodeDB struct {
	// Holds pointers to unused []byte
	bufferPool *sync.Pool
	baseDB     store
}

func newValueNodeDB(db store) *valueNodeDB {
	return &valueNodeDB{
		baseDB: db,
		bufferPool: &sync.Pool{
			New: func() any {
				b := make([]byte, 0, defaultBufferLength)
				return &b
			},
		},
	}
}

// prefixKey builds prefix+key in a buffer taken from the pool.
func (db *valueNodeDB) prefixKey(prefix byte, key []byte) *[]byte {
	bp := db.bufferPool.Get().(*[]byte)
	n := len(key) + 1
	if cap(*bp) >= n {
		*bp = (*bp)[:n]
	} else {
		*bp = make([]byte, n)
	}
	(*bp)[0] = prefix
	copy((*bp)[1:], key)
	return bp
}

func (db *valueNodeDB) putKey(bp *[]byte) {
	if cap(*bp) > defaultBufferLength {
		return
	}
	db.bufferPool.Put(bp)
}

func (db *valueNodeDB) Get(key []byte) ([]byte, error) {
	prefixed := db.prefixKey('v', key)
	val, err := db.baseDB.Get(*prefixed)
	db.putKey(prefixed)
	if err != nil {
		return nil, err
	}
	return val, nil
}
