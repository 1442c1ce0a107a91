package useafterput

import "bytes"

type pending struct {
	buf       *bytes.Buffer
	callbacks []func([]byte)
}

// The field is loaded again after its object went back to the pool
// (apache/pulsar-client-go#1347).
func (i *pending) doneEarly() {
	if i.buf.Cap() <= 1<<20 {
		bufPool.Put(i.buf)
	}
	for _, cb := range i.callbacks {
		cb(i.buf.Bytes()) // want `i.buf is used after it was put back into the pool`
	}
}

// Callbacks first, then the Put: fine.
func (i *pending) doneLate() {
	for _, cb := range i.callbacks {
		cb(i.buf.Bytes())
	}
	if i.buf.Cap() <= 1<<20 {
		bufPool.Put(i.buf)
	}
}

// The field gets another buffer before it is used again: fine.
func (i *pending) swap() {
	if i.buf.Cap() <= 1<<20 {
		bufPool.Put(i.buf)
	}
	i.buf = new(bytes.Buffer)
	i.buf.WriteString("x")
}

func (i *pending) renew() { i.buf = new(bytes.Buffer) }

// A method of the base may store another buffer into the field: silent.
func (i *pending) renewed() {
	if i.buf.Cap() <= 1<<20 {
		bufPool.Put(i.buf)
	}
	i.renew()
	i.buf.WriteString("x")
}

// The value loaded before a store to the field stays the object: its
// use after the Put is reported even though the field was cleared.
func (i *pending) clearedThenUsed() {
	b := i.buf
	i.buf = nil
	if b.Cap() <= 1<<20 {
		bufPool.Put(b)
	}
	b.WriteString("x") // want `b is used after it was put back into the pool`
}
