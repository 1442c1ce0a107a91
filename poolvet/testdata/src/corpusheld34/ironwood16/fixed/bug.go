// Package bug reproduces the shape of Arceliar/ironwood#16
// (https://github.com/Arceliar/ironwood/pull/16, commit
// https://github.com/Arceliar/ironwood/commit/274c9d8cac81758e09276d4bded794df5ea9332c
// "Fix some data races"): a peer hands pooled *dhtTraffic packets to its writer
// with peerWriter.sendPacket, which only enqueues a closure on the writer's actor
// inbox; the packet is encoded later on the writer goroutine. Both peer._push and
// peer.pop, however, defer dhtTrafficPool.Put(tr) in their own frame, so the packet
// goes back to the pool as soon as they return, before the writer has encoded it,
// and a concurrent getDHTTraffic can hand it out and overwrite it. The fix moves
// the Put into the writer's closure, after wireEncode.
//
// Fixed twin: sendPacket's queued closure puts the packet back after encoding;
// _push and pop no longer release it.
package bug

import (
	"encoding/binary"
	"errors"
	"io"
	"sync"
	"time"
)

const wireDHTTraffic = 3

type publicKey [32]byte

// inbox is a tiny stand-in for phony.Inbox: Act queues f and returns at once;
// queued functions run in order on a separate goroutine.
type inbox struct {
	mu      sync.Mutex
	queue   []func()
	running bool
}

func (in *inbox) Act(_ *inbox, f func()) {
	in.mu.Lock()
	in.queue = append(in.queue, f)
	if !in.running {
		in.running = true
		go in.run()
	}
	in.mu.Unlock()
}

func (in *inbox) run() {
	for {
		in.mu.Lock()
		if len(in.queue) == 0 {
			in.running = false
			in.mu.Unlock()
			return
		}
		f := in.queue[0]
		in.queue = in.queue[1:]
		in.mu.Unlock()
		f()
	}
}

type dhtTraffic struct {
	source  publicKey
	dest    publicKey
	kind    byte
	payload []byte
}

func (tr *dhtTraffic) encode(out []byte) ([]byte, error) {
	out = append(out, tr.source[:]...)
	out = append(out, tr.dest[:]...)
	out = append(out, tr.kind)
	return append(out, tr.payload...), nil
}

const maxPayload = 65535

var dhtTrafficPool = sync.Pool{
	New: func() any {
		return &dhtTraffic{payload: make([]byte, 0, maxPayload)}
	},
}

func getDHTTraffic() *dhtTraffic {
	d := dhtTrafficPool.Get().(*dhtTraffic)
	d.kind = 0
	d.source = publicKey{}
	d.dest = publicKey{}
	d.payload = d.payload[:0]
	return d
}

func putDHTTraffic(d *dhtTraffic) {
	if cap(d.payload) > maxPayload {
		return
	}
	dhtTrafficPool.Put(d)
}

func wireEncode(out []byte, pType byte, tr *dhtTraffic) ([]byte, error) {
	out = append(out, pType)
	return tr.encode(out)
}

type peerWriter struct {
	inbox
	conn     io.Writer
	writeBuf []byte
}

func (w *peerWriter) sendPacket(pType byte, tr *dhtTraffic) {
	w.Act(nil, func() {
		// The writer owns the packet from here on and releases it once encoded.
		defer putDHTTraffic(tr)
		w.writeBuf = append(w.writeBuf[:0], 0x00, 0x00) // length goes here
		var err error
		w.writeBuf, err = wireEncode(w.writeBuf, pType, tr)
		if err != nil {
			panic(err)
		}
		bs := w.writeBuf[2:]
		if len(bs) > int(^uint16(0)) {
			return
		}
		binary.BigEndian.PutUint16(w.writeBuf[:2], uint16(len(bs)))
		_, _ = w.conn.Write(w.writeBuf)
	})
}

type queued struct {
	packet *dhtTraffic
	time   time.Time
}

type peer struct {
	inbox
	writer peerWriter
	queue  []queued
	ready  bool
}

func (p *peer) sendDHTTraffic(from *inbox, tr *dhtTraffic) {
	p.Act(from, func() {
		p._push(tr)
	})
}

func (p *peer) _push(tr *dhtTraffic) {
	if p.ready {
		p.writer.sendPacket(wireDHTTraffic, tr)
		p.ready = false
		return
	}
	// The writer is busy: queue the packet for later.
	if len(p.queue) > 0 && time.Since(p.queue[0].time) > 25*time.Millisecond {
		putDHTTraffic(p.queue[0].packet)
		p.queue = p.queue[1:]
	}
	p.queue = append(p.queue, queued{packet: tr, time: time.Now()})
}

func (p *peer) pop() {
	p.Act(nil, func() {
		if len(p.queue) > 0 {
			info := p.queue[0]
			p.queue = p.queue[1:]
			p.writer.sendPacket(wireDHTTraffic, info.packet)
		} else {
			p.ready = true
		}
	})
}

func (p *peer) handleIncoming(bs []byte) error {
	tr := getDHTTraffic()
	if len(bs) < 65 {
		putDHTTraffic(tr)
		return errors.New("short packet")
	}
	copy(tr.source[:], bs[:32])
	copy(tr.dest[:], bs[32:64])
	tr.kind = bs[64]
	tr.payload = append(tr.payload[:0], bs[65:]...)
	p.sendDHTTraffic(nil, tr)
	return nil
}
