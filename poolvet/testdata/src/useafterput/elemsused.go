package useafterput

import "sync"

type op struct{ docs [][]byte }

var opPool = sync.Pool{New: func() any { return new(op) }}

type batch struct{ ops []*op }

func (b *batch) add(doc []byte) {
	if len(b.ops) == 0 {
		b.ops = append(b.ops, opPool.Get().(*op))
	}
	last := b.ops[len(b.ops)-1]
	last.docs = append(last.docs, doc)
}

// run puts every op back but leaves them in b.ops.
func (b *batch) run() {
	for _, o := range b.ops {
		o.docs = o.docs[:0]
		opPool.Put(o) // want `run puts the elements of b.ops back into the pool but leaves them in the field, and add reads them`
	}
}

// The second add appends to a put op (globalsign/mgo#199).
func addTwice(b *batch, x, y []byte) {
	b.add(x)
	b.run()
	b.add(y) // want `add reads ops, whose elements run \(line 30\) put back into the pool and left there`
}

// runClearing forgets the ops it puts.
func (b *batch) runClearing() {
	for _, o := range b.ops {
		o.docs = o.docs[:0]
		opPool.Put(o)
	}
	b.ops = b.ops[:0]
}

// Silent: the slice is cleared.
func addTwiceClearing(b *batch, x, y []byte) {
	b.add(x)
	b.runClearing()
	b.add(y)
}

type curlReq struct {
	body *op
	url  string
}

// send fills a pooled op, puts it back, and leaves it in the field.
func (r *curlReq) send() {
	r.body = opPool.Get().(*op)
	r.body.docs = append(r.body.docs[:0], []byte(r.url))
	r.body.docs = r.body.docs[:0]
	opPool.Put(r.body)
}

func (r *curlReq) curl() string {
	if r.body != nil {
		return "curl -d " + string(r.body.docs[0])
	}
	return "curl " + r.url
}

// The log line reads the put op (go-resty/resty#1202).
func sendAndLog(r *curlReq) string {
	r.send()
	return r.curl() // want `curl reads body, which still holds what send \(line 72\) put back into the pool`
}
