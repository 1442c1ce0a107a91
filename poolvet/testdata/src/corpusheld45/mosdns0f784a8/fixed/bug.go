// Package bug reproduces the shape of IrineSistiana/mosdns commit 0f784a8
// (https://github.com/IrineSistiana/mosdns/commit/0f784a80f1b46f61e1a30c620eb5cf22047c6922),
// fixed: response channels are no longer pooled. Every query makes its own
// channel, so a late reply can only reach the query that owns the
// channel (or is released), never another query.
//
// Check: useafterput (none expected in the fixed twin).
package bug

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

// ErrTDCTooManyQueries is returned when no query id can be assigned.
var ErrTDCTooManyQueries = errors.New("too many queries")

var respBufPool = sync.Pool{
	New: func() any {
		b := make([]byte, 0, 4096)
		return &b
	},
}

// ReleaseResp gives a response buffer back to its pool.
func ReleaseResp(b *[]byte) {
	if cap(*b) > 4096 {
		return
	}
	*b = (*b)[:0]
	respBufPool.Put(b)
}

// TraditionalDnsConn multiplexes queries over one udp/tcp connection by
// rewriting their ids.
type TraditionalDnsConn struct {
	c io.ReadWriter

	queueMu sync.RWMutex
	nextQid uint16
	queue   map[uint32]chan *[]byte
}

func (dc *TraditionalDnsConn) readResp() (*[]byte, error) {
	bp := respBufPool.Get().(*[]byte)
	b := (*bp)[:cap(*bp)]
	n, err := dc.c.Read(b)
	if err != nil || n < 12 {
		ReleaseResp(bp)
		if err == nil {
			err = errors.New("short dns message")
		}
		return nil, err
	}
	*bp = b[:n]
	return bp, nil
}

func (dc *TraditionalDnsConn) getQueueC(qid uint16) chan<- *[]byte {
	dc.queueMu.RLock()
	defer dc.queueMu.RUnlock()
	return dc.queue[uint32(qid)]
}

// exchange sends q out and waits for its reply.
func (dc *TraditionalDnsConn) exchange(ctx context.Context, q []byte) (*[]byte, error) {
	assignedQid, respChan := dc.addQueueC()
	if respChan == nil {
		return nil, ErrTDCTooManyQueries
	}
	defer dc.deleteQueueC(assignedQid)

	payload := append([]byte(nil), q...)
	binary.BigEndian.PutUint16(payload, assignedQid)
	if _, err := dc.c.Write(payload); err != nil {
		return nil, err
	}

	select {
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	case r := <-respChan:
		orgID := binary.BigEndian.Uint16(q)
		binary.BigEndian.PutUint16(*r, orgID)
		return r, nil
	}
}

// readLoop reads replies until a read error and routes them by id.
func (dc *TraditionalDnsConn) readLoop() {
	for {
		r, err := dc.readResp()
		if err != nil {
			return
		}
		rid := binary.BigEndian.Uint16(*r)
		resChan := dc.getQueueC(rid)
		if resChan != nil {
			select {
			case resChan <- r:
			default:
				ReleaseResp(r)
			}
		} else {
			ReleaseResp(r)
		}
	}
}

// addQueueC assigns a qid and adds its channel to the queue.
func (dc *TraditionalDnsConn) addQueueC() (qid uint16, c chan *[]byte) {
	c = make(chan *[]byte)
	dc.queueMu.Lock()
	for i := 0; i < 100; i++ {
		qid = dc.nextQid
		dc.nextQid++
		if _, dup := dc.queue[uint32(qid)]; dup {
			continue
		}
		dc.queue[uint32(qid)] = c
		dc.queueMu.Unlock()
		return qid, c
	}
	dc.queueMu.Unlock()
	return 0, nil
}

func (dc *TraditionalDnsConn) deleteQueueC(qid uint16) {
	dc.queueMu.Lock()
	delete(dc.queue, uint32(qid))
	dc.queueMu.Unlock()
}
