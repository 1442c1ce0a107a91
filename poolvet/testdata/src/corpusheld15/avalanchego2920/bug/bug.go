// Package bug reproduces the shape of ava-labs/avalanchego#2920
// (https://github.com/ava-labs/avalanchego/pull/2920): merkledb's value and
// intermediate node stores shared a sync.Pool of []byte key buffers. Every
// Put of a plain []byte converts the slice header to an interface, which
// allocates, so the pool meant to save allocations added one per lookup. The
// fix replaced it with a bytes pool that keeps *[]byte.
//
// A size guard sits before the Put in both twins so that only the boxing of
// the slice is at stake here.
//
// Check: nonpointer (a []byte, not a pointer to it, put into a sync.Pool)
package bug

import "sync"

const defaultBufferLength = 256

type store interface {
	Get(key []byte) ([]byte, error)
}

type valueNodeDB struct {
	// Holds unused []byte
	bufferPool *sync.Pool
	baseDB     store
}

func newValueNodeDB(db store) *valueNodeDB {
	return &valueNodeDB{
		baseDB: db,
		bufferPool: &sync.Pool{
			New: func() any {
				return make([]byte, 0, defaultBufferLength)
			},
		},
	}
}

// prefixKey builds prefix+key in a buffer taken from the pool.
func (db *valueNodeDB) prefixKey(prefix byte, key []byte) []byte {
	buf := db.bufferPool.Get().([]byte)
	n := len(key) + 1
	if cap(buf) >= n {
		buf = buf[:n]
	} else {
		buf = make([]byte, n)
	}
	buf[0] = prefix
	copy(buf[1:], key)
	return buf
}

func (db *valueNodeDB) putKey(buf []byte) {
	if cap(buf) > defaultBufferLength {
		return
	}
	db.bufferPool.Put(buf) // want `nonpointer`
}

func (db *valueNodeDB) Get(key []byte) ([]byte, error) {
	prefixed := db.prefixKey('v', key)
	val, err := db.baseDB.Get(prefixed)
	db.putKey(prefixed)
	if err != nil {
		return nil, err
	}
	return val, nil
}
