// Package bug reproduces the shape of xxddpac/go-flow#6 (https://github.com/xxddpac/go-flow/pull/6): the flow collector filled a *Traffic taken from a sync.Pool, handed the pointer on through a buffered channel to the goroutines feeding Kafka and the metrics, and put it back into the pool straight away. The next packet could Get the same struct and overwrite it while the consumer was still reading it; the fix copies the record before handing it off.
//
// Check: useafterput (Put right after a channel hand-off, without waiting for the receiver).
package bug

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
	c.out <- t
	trafficPool.Put(t) // want `used after|hand-?off|useafterput`
}
