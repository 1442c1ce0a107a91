// Package bug reproduces the shape of beanstalkd/go-beanstalk#16
// (https://github.com/beanstalkd/go-beanstalk/pull/16): "Different consumer
// reuse one conn take wrong jobs". Users kept beanstalkd sockets in a shared
// socket pool and wrapped each checked-out socket with beanstalk.NewConn.
// A beanstalkd connection carries session state (the set of watched tubes
// and the used tube). A consumer that watched tube "a" put the socket back
// with "a" still watched; the next consumer wrapped it in a fresh Conn, which
// believes only "default" is watched, so its adjustTubes never ignored "a"
// and Reserve handed it jobs from a tube it never asked for. The proposed
// fix adds a reset stage that restores the connection to the state of a
// new one (watch "default", ignore everything else) before reuse.
//
// Check: noreset (the socket goes back to the pool still watching the
// previous consumer's tubes; report at the Put in consume).
package bug

import (
	"errors"
	"sync"
	"time"
)

// socket stands for the pooled network connection together with the
// per-connection session state that beanstalkd keeps for it.
type socket struct {
	used    string
	watched map[string]bool
	ready   map[string][]job
}

type job struct {
	id   uint64
	body []byte
}

func newSocket(ready map[string][]job) *socket {
	return &socket{
		used:    "default",
		watched: map[string]bool{"default": true},
		ready:   ready,
	}
}

// cmd applies a protocol command to the connection session.
func (s *socket) cmd(name, tube string) {
	switch name {
	case "use":
		s.used = tube
	case "watch":
		s.watched[tube] = true
	case "ignore":
		delete(s.watched, tube)
	}
}

func (s *socket) reserve() (uint64, []byte, error) {
	for tube := range s.watched {
		if q := s.ready[tube]; len(q) > 0 {
			j := q[0]
			s.ready[tube] = q[1:]
			return j.id, j.body, nil
		}
	}
	return 0, nil, errors.New("timed out")
}

// Conn is the client's view of a connection; it tracks which tubes it
// thinks are used and watched.
type Conn struct {
	s       *socket
	used    string
	watched map[string]bool
}

// NewConn wraps an already open socket, assuming it is fresh.
func NewConn(s *socket) *Conn {
	return &Conn{s: s, used: "default", watched: map[string]bool{"default": true}}
}

// TubeSet is a set of tubes to reserve from.
type TubeSet struct {
	Conn *Conn
	Name map[string]bool
}

// NewTubeSet returns a TubeSet over the given tube names.
func NewTubeSet(c *Conn, name ...string) *TubeSet {
	ts := &TubeSet{Conn: c, Name: make(map[string]bool)}
	for _, n := range name {
		ts.Name[n] = true
	}
	return ts
}

func (c *Conn) adjustTubes(s *TubeSet) {
	for name := range s.Name {
		if !c.watched[name] {
			c.s.cmd("watch", name)
		}
	}
	for name := range c.watched {
		if !s.Name[name] {
			c.s.cmd("ignore", name)
		}
	}
	c.watched = make(map[string]bool)
	for name := range s.Name {
		c.watched[name] = true
	}
}

// Reserve reserves a job from one of the tubes in the set.
func (t *TubeSet) Reserve(timeout time.Duration) (uint64, []byte, error) {
	t.Conn.adjustTubes(t)
	_ = timeout
	return t.Conn.s.reserve()
}

// Handler processes a reserved job.
type Handler func(id uint64, body []byte) error

type consumer struct {
	sockets *sync.Pool
}

func (cs *consumer) consume(tube string, h Handler) error {
	s := cs.sockets.Get().(*socket)
	c := NewConn(s)
	ts := NewTubeSet(c, tube)
	id, body, err := ts.Reserve(5 * time.Second)
	if err != nil {
		cs.sockets.Put(s) // want `noreset`
		return err
	}
	err = h(id, body)
	cs.sockets.Put(s) // want `noreset`
	return err
}
