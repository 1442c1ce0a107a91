// Package fixed is the fix of dgraph-io/badger#1588
// (https://github.com/dgraph-io/badger/pull/1588, commit 02b81bb): the
// consumer no longer releases the allocators of the lists it sends;
// Orchestrate, which remembers every allocator it handed out, is their only
// owner and releases each of them once, after streaming is over.
package fixed

import "sync"

type Allocator struct {
	buf [4096]byte
	off int
}

var allocPool = sync.Pool{New: func() any { return new(Allocator) }}

// Copy places b in the allocator's arena when it fits.
func (a *Allocator) Copy(b []byte) []byte {
	if a.off+len(b) > len(a.buf) {
		return append([]byte(nil), b...)
	}
	out := a.buf[a.off : a.off+len(b)]
	copy(out, b)
	a.off += len(b)
	return out
}

type KVList struct {
	Kv    [][]byte
	alloc *Allocator
}

type Stream struct {
	mu         sync.Mutex
	allocators map[int]*Allocator
	kvChan     chan *KVList
	Send       func(*KVList) error
}

// newAllocator hands out a fresh allocator for a producer thread and
// remembers it so that Orchestrate can release it at the end.
func (st *Stream) newAllocator(threadID int) *Allocator {
	a := allocPool.Get().(*Allocator)
	a.off = 0
	st.mu.Lock()
	st.allocators[threadID] = a
	st.mu.Unlock()
	return a
}

func (st *Stream) produceKVs(threadID int, keys [][]byte) {
	list := &KVList{alloc: st.newAllocator(threadID)}
	for _, k := range keys {
		list.Kv = append(list.Kv, list.alloc.Copy(k))
	}
	st.kvChan <- list
}

func (st *Stream) streamKVs() error {
	for list := range st.kvChan {
		if err := st.Send(list); err != nil {
			return err
		}
	}
	return nil
}

func (st *Stream) Orchestrate(work map[int][][]byte) error {
	st.allocators = make(map[int]*Allocator)
	st.kvChan = make(chan *KVList, len(work))
	var wg sync.WaitGroup
	for id, keys := range work {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st.produceKVs(id, keys)
		}()
	}
	kvErr := make(chan error, 1)
	go func() { kvErr <- st.streamKVs() }()
	wg.Wait()
	close(st.kvChan)
	err := <-kvErr

	for _, a := range st.allocators {
		allocPool.Put(a)
	}
	return err
}
