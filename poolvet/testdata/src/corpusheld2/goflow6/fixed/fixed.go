// Package fixed is the repaired twin of xxddpac/go-flow#6 (https://github.com/xxddpac/go-flow/pull/6): the fix sends a copy of the pooled record, so the pooled struct can go back to the pool at once.
package fixed

import "sync"

// Traffic is one flow record.
type Traffic struct {
	SrcIP, DstIP string
	Port         int
	Bytes        int64
}

var trafficPool = sync.Pool{New: func() any { return new(Traffic) }}

// Collector forwards flow records to a consumer goroutine.
type Collector struct {
	out chan *Traffic
}

// NewCollector makes a collector with a buffered queue.
func NewCollector(n int) *Collector {
	return &Collector{out: make(chan *Traffic, n)}
}

// Run consumes records until the queue is closed.
func (c *Collector) Run(sink func(Traffic)) {
	for t := range c.out {
		sink(*t)
	}
}

// Handle records one packet.
func (c *Collector) Handle(src, dst string, port int, n int64) {
	t := trafficPool.Get().(*Traffic)
	*t = Traffic{SrcIP: src, DstIP: dst, Port: port, Bytes: n}
	cp := *t
	c.out <- &cp
	trafficPool.Put(t)
}
