// Source: https://github.com/RoseWrightdev/oryx/pull/33
// ("fix(wal): reset entry.Entry in Publish to prevent data races"),
// merge commit 69e79f680032a58241bad81bd975251faaea6ab6.
//
// Bug: Wal.Publish leases a *pb.WalEntry from w.entryPool, points its oneof
// field at the caller's message (wrapping a *SetRequest / *DeleteRequest, or
// taking over the caller's own oneof wrapper for a *WalEntry) and then
// returns it with a plain `defer w.entryPool.Put(entry)`. The pooled entry
// keeps referencing the caller's request, which the caller itself resets and
// returns to its own request pool, and the next Publish that reuses the
// wrapper writes `wrapper.Set = m` into an object the previous caller still
// owns: a data race on recycled state.
//
// Fix: the deferred Put becomes a closure that first clears the wrapper's
// Set/Delete pointer, then puts the entry back.
//
// Check: noreset (the deferred entryPool.Put returns the WalEntry while its
// Entry wrapper still points at the caller's request).
package bug

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"sync"
)

type HashKey = uint64

type Key = string

// Message stands in for proto.Message.
type Message interface{ ProtoMessage() }

type SetRequest struct {
	Key       string
	Value     []byte
	Timestamp int64
	NodeId    string
}

func (*SetRequest) ProtoMessage() {}

func (x *SetRequest) Reset() { *x = SetRequest{} }

type DeleteRequest struct {
	Key       string
	Timestamp int64
	NodeId    string
}

func (*DeleteRequest) ProtoMessage() {}

type isWalEntry_Entry interface{ isWalEntry_Entry() }

type WalEntry_Set struct{ Set *SetRequest }

func (*WalEntry_Set) isWalEntry_Entry() {}

type WalEntry_Delete struct{ Delete *DeleteRequest }

func (*WalEntry_Delete) isWalEntry_Entry() {}

type WalEntry struct {
	Entry isWalEntry_Entry
}

func (*WalEntry) ProtoMessage() {}

// marshalAppend stands in for proto.MarshalOptions{}.MarshalAppend.
func marshalAppend(b []byte, e *WalEntry) ([]byte, error) {
	switch x := e.Entry.(type) {
	case *WalEntry_Set:
		b = append(b, 1)
		b = append(b, x.Set.Key...)
		b = append(b, x.Set.Value...)
	case *WalEntry_Delete:
		b = append(b, 2)
		b = append(b, x.Delete.Key...)
	default:
		return nil, fmt.Errorf("empty entry")
	}
	return b, nil
}

type walSegment struct {
	wrt *bufio.Writer
	mu  sync.Mutex
}

type Wal struct {
	headerPool sync.Pool
	entryPool  sync.Pool
	bufferPool sync.Pool
	segments   []*walSegment
	count      int
}

func newWal(segs []*walSegment) *Wal {
	return &Wal{
		segments: segs,
		count:    len(segs),
		headerPool: sync.Pool{
			New: func() any {
				b := make([]byte, 4)
				return &b
			},
		},
		entryPool: sync.Pool{
			New: func() any {
				return &WalEntry{}
			},
		},
		bufferPool: sync.Pool{
			New: func() any {
				b := make([]byte, 0, 2048)
				return &b
			},
		},
	}
}

func (w *Wal) getSegment(hash HashKey) *walSegment {
	countU := uint64(w.count)
	idx := hash % countU
	return w.segments[int(idx)]
}

// Publish appends a write entry to the partition-segmented write-ahead log.
func (w *Wal) Publish(_ Key, hash HashKey, msg Message) error {
	entry := w.entryPool.Get().(*WalEntry)
	defer w.entryPool.Put(entry) // want `noreset`

	switch m := msg.(type) {
	case *WalEntry:
		entry.Entry = m.Entry
	case *SetRequest:
		if wrapper, ok := entry.Entry.(*WalEntry_Set); ok {
			wrapper.Set = m
		} else {
			entry.Entry = &WalEntry_Set{Set: m}
		}
	case *DeleteRequest:
		if wrapper, ok := entry.Entry.(*WalEntry_Delete); ok {
			wrapper.Delete = m
		} else {
			entry.Entry = &WalEntry_Delete{Delete: m}
		}
	default:
		return fmt.Errorf("unsupported message type: %T", msg)
	}

	bufPtr := w.bufferPool.Get().(*[]byte)
	buf := (*bufPtr)[:0]
	data, err := marshalAppend(buf, entry)
	if err != nil {
		w.bufferPool.Put(bufPtr)
		return err
	}
	*bufPtr = data
	defer w.bufferPool.Put(bufPtr)

	headerPtr := w.headerPool.Get().(*[]byte)
	header := *headerPtr
	defer w.headerPool.Put(headerPtr)
	dataLen := len(data)
	dataLenU := uint32(dataLen)
	binary.BigEndian.PutUint32(header, dataLenU)

	seg := w.getSegment(hash)
	seg.mu.Lock()
	defer seg.mu.Unlock()

	if _, err := seg.wrt.Write(header); err != nil {
		return err
	}

	if _, err := seg.wrt.Write(data); err != nil {
		return err
	}

	return nil
}

// engine is the caller side: it leases a SetRequest from its own pool,
// publishes it, then resets it and puts it back.
type engine struct {
	wal         *Wal
	setRequests sync.Pool
}

func (eng *engine) Set(key Key, hash HashKey, value []byte, ts int64) error {
	req := eng.setRequests.Get().(*SetRequest)
	req.Key = key
	req.Value = value
	req.Timestamp = ts
	err := eng.wal.Publish(key, hash, req)
	req.Reset()
	eng.setRequests.Put(req)
	return err
}
