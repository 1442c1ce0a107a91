// Package bug reproduces the shape of olric-data/olric#180
// (https://github.com/olric-data/olric/pull/180): DMap.Put encoded the value
// into a pooled bytes.Buffer, pointed the request env at buf.Bytes() and
// gave the buffer back with a deferred Put. In async replication mode put()
// hands the env to goroutines that outlive Put, so they keep a view of a
// buffer the next caller of Put is already encoding into (a FIXME next to
// the deferred Put already warned about async replication). The fix copies
// the encoded bytes into a fresh slice.
//
// Check: useafterput (hand-off past a deferred Put: an env holding
// buf.Bytes() is passed to a function that starts goroutines with it; the
// report is expected at that hand-off, the `return dm.put(e)` line).
package bug

import (
	"bytes"
	"sync"
)

const maxPooledBuf = 64 << 10

var pool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type env struct {
	dmap  string
	key   string
	value []byte
}

type entry struct {
	key   string
	value []byte
}

func (n *entry) encode() []byte {
	out := make([]byte, 0, len(n.key)+len(n.value))
	out = append(out, n.key...)
	return append(out, n.value...)
}

type DMap struct {
	name    string
	async   bool
	owners  []string
	wg      sync.WaitGroup
	storage map[string]*entry
	sent    chan string
}

func (dm *DMap) asyncPutOnBackup(e *env, data []byte, owner string) {
	defer dm.wg.Done()
	dm.sent <- owner + "/" + e.dmap + "/" + e.key + ":" + string(data)
}

// store keeps its own copy of the entry, as the storage engine does.
func (dm *DMap) store(nt *entry) {
	dm.storage[nt.key] = &entry{key: nt.key, value: append([]byte(nil), nt.value...)}
}

func (dm *DMap) asyncPutOnCluster(e *env, nt *entry) error {
	dm.store(nt)
	encoded := nt.encode()
	for _, owner := range dm.owners {
		dm.wg.Add(1)
		go dm.asyncPutOnBackup(e, encoded, owner) // fire and forget
	}
	return nil
}

func (dm *DMap) put(e *env) error {
	nt := &entry{key: e.key, value: e.value}
	if dm.async {
		return dm.asyncPutOnCluster(e, nt)
	}
	dm.store(nt)
	return nil
}

// Put stores value under key.
func (dm *DMap) Put(key, value string) error {
	valueBuf := pool.Get().(*bytes.Buffer)
	valueBuf.Reset()
	defer func() {
		if valueBuf.Cap() > maxPooledBuf {
			return
		}
		pool.Put(valueBuf)
	}()
	valueBuf.WriteString(value)

	e := &env{dmap: dm.name, key: key}
	e.value = valueBuf.Bytes()
	return dm.put(e) // want `useafterput`
}
