// Package bug reproduces the shape of cockroachdb/cockroach#64946
// (https://github.com/cockroachdb/cockroach/pull/64946, informs #64906):
// MVCC gets and scans take a pebbleMVCCScanner from a sync.Pool and hand it
// back with a deferred Put. The scanner was only wiped when it was taken out
// again (by assigning a fresh struct after Get), so while it sat in the pool it
// still held the iterator, the keys, the transaction and, above all, the
// accumulated result and intent buffers of the last scan, which can be large.
// The fix wipes the scanner in a release method before the Put.
// Check: noreset (scanner put back still holding the previous scan's state),
// reported at the deferred Puts in mvccGet and mvccScanToBytes.
package bug

import (
	"bytes"
	"errors"
	"sync"
)

type Key []byte

type Timestamp struct {
	WallTime int64
	Logical  int32
}

func (t Timestamp) Less(o Timestamp) bool {
	return t.WallTime < o.WallTime || (t.WallTime == o.WallTime && t.Logical < o.Logical)
}

type Transaction struct {
	ID       [16]byte
	Epoch    int32
	Sequence int32
}

type MVCCIterator interface {
	SeekGE(key Key)
	Valid() bool
	Next()
	UnsafeKey() Key
	UnsafeValue() []byte
	Timestamp() Timestamp
}

type pebbleResults struct {
	count int64
	bytes int64
	repr  []byte
	bufs  [][]byte
}

func (p *pebbleResults) put(key Key, value []byte) {
	p.repr = append(p.repr, key...)
	p.repr = append(p.repr, value...)
	p.count++
	p.bytes += int64(len(key) + len(value))
}

func (p *pebbleResults) finish() [][]byte {
	if len(p.repr) > 0 {
		p.bufs = append(p.bufs, p.repr)
		p.repr = nil
	}
	return p.bufs
}

type intentBatch struct {
	repr []byte
}

func (b *intentBatch) Set(key Key, meta []byte) {
	b.repr = append(b.repr, key...)
	b.repr = append(b.repr, meta...)
}

func (b *intentBatch) Repr() []byte { return b.repr }

type pebbleMVCCScanner struct {
	parent       MVCCIterator
	reverse      bool
	start, end   Key
	ts           Timestamp
	maxKeys      int64
	targetBytes  int64
	txn          *Transaction
	inconsistent bool
	tombstones   bool
	curKey       Key
	curValue     []byte
	results      pebbleResults
	intents      intentBatch
	mostRecentTS Timestamp
	err          error
}

var pebbleMVCCScannerPool = sync.Pool{
	New: func() interface{} {
		return &pebbleMVCCScanner{}
	},
}

func (p *pebbleMVCCScanner) init(txn *Transaction) {
	p.txn = txn
}

func (p *pebbleMVCCScanner) scan() {
	p.parent.SeekGE(p.start)
	for p.parent.Valid() {
		p.curKey = p.parent.UnsafeKey()
		if len(p.end) > 0 && bytes.Compare(p.curKey, p.end) >= 0 {
			return
		}
		p.curValue = p.parent.UnsafeValue()
		if p.ts.Less(p.parent.Timestamp()) {
			if p.txn == nil && !p.inconsistent {
				p.intents.Set(p.curKey, p.curValue)
			}
			p.mostRecentTS = p.parent.Timestamp()
		} else if len(p.curValue) > 0 || p.tombstones {
			p.results.put(p.curKey, p.curValue)
		}
		if p.maxKeys > 0 && p.results.count >= p.maxKeys {
			return
		}
		if p.targetBytes > 0 && p.results.bytes >= p.targetBytes {
			return
		}
		p.parent.Next()
	}
}

type MVCCGetOptions struct {
	Inconsistent bool
	Tombstones   bool
	Txn          *Transaction
}

type MVCCScanOptions struct {
	Inconsistent bool
	Tombstones   bool
	Reverse      bool
	Txn          *Transaction
	MaxKeys      int64
	TargetBytes  int64
}

type MVCCScanResult struct {
	KVData     [][]byte
	NumKeys    int64
	NumBytes   int64
	IntentRepr []byte
}

var errWriteIntent = errors.New("conflicting intents")

func mvccGet(iter MVCCIterator, key Key, ts Timestamp, opts MVCCGetOptions) ([]byte, error) {
	mvccScanner := pebbleMVCCScannerPool.Get().(*pebbleMVCCScanner)
	defer pebbleMVCCScannerPool.Put(mvccScanner) // want `noreset`

	// Whatever the previous user left behind is overwritten here, after Get.
	*mvccScanner = pebbleMVCCScanner{
		parent:       iter,
		start:        key,
		ts:           ts,
		maxKeys:      1,
		inconsistent: opts.Inconsistent,
		tombstones:   opts.Tombstones,
	}
	mvccScanner.init(opts.Txn)
	mvccScanner.scan()
	if mvccScanner.err != nil {
		return nil, mvccScanner.err
	}
	if !opts.Inconsistent && len(mvccScanner.intents.Repr()) > 0 {
		return nil, errWriteIntent
	}
	if mvccScanner.results.count == 0 {
		return nil, nil
	}
	bufs := mvccScanner.results.finish()
	out := make([]byte, len(bufs[0]))
	copy(out, bufs[0])
	return out, nil
}

func mvccScanToBytes(iter MVCCIterator, key, endKey Key, ts Timestamp, opts MVCCScanOptions) (MVCCScanResult, error) {
	mvccScanner := pebbleMVCCScannerPool.Get().(*pebbleMVCCScanner)
	defer pebbleMVCCScannerPool.Put(mvccScanner) // want `noreset`

	*mvccScanner = pebbleMVCCScanner{
		parent:       iter,
		reverse:      opts.Reverse,
		start:        key,
		end:          endKey,
		ts:           ts,
		maxKeys:      opts.MaxKeys,
		targetBytes:  opts.TargetBytes,
		inconsistent: opts.Inconsistent,
		tombstones:   opts.Tombstones,
	}
	mvccScanner.init(opts.Txn)
	mvccScanner.scan()
	if mvccScanner.err != nil {
		return MVCCScanResult{}, mvccScanner.err
	}
	var res MVCCScanResult
	for _, buf := range mvccScanner.results.finish() {
		res.KVData = append(res.KVData, append([]byte(nil), buf...))
	}
	res.NumKeys = mvccScanner.results.count
	res.NumBytes = mvccScanner.results.bytes
	res.IntentRepr = append([]byte(nil), mvccScanner.intents.Repr()...)
	return res, nil
}
