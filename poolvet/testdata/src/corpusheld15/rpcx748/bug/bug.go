// Package bug reproduces the shape of smallnest/rpcx#748
// (https://github.com/smallnest/rpcx/issues/748): the server takes the
// argument struct of a call from a pool, runs the service method and puts
// the struct back as soon as the method returns. A service method that
// passes its request on through a channel for later processing leaves the
// consumer reading an object the pool already gives to the next call.
//
// Check: useafterput (hand-off: the argument is sent on a channel by the
// service method, then the caller puts it back without waiting).
package bug

import "sync"

type Args struct {
	ID      int64
	Payload string
}

func (a *Args) Reset() {
	a.ID = 0
	a.Payload = ""
}

type Reply struct {
	OK bool
}

var argsPool = sync.Pool{New: func() any { return new(Args) }}

// Service queues requests for a background writer.
type Service struct {
	queue chan *Args
}

func NewService() *Service {
	s := &Service{queue: make(chan *Args, 128)}
	go s.drain()
	return s
}

func (s *Service) drain() {
	for a := range s.queue {
		_ = a.ID
		_ = len(a.Payload)
	}
}

// HandleCall hands the request to the writer and answers at once.
func (s *Service) HandleCall(req *Args, res *Reply) error {
	s.queue <- req
	res.OK = true
	return nil
}

// handleRequest decodes the call into a pooled argument and dispatches it.
func handleRequest(s *Service, id int64, payload string) (*Reply, error) {
	argv := argsPool.Get().(*Args)
	argv.ID = id
	argv.Payload = payload

	reply := new(Reply)
	err := s.HandleCall(argv, reply)

	argv.Reset()
	argsPool.Put(argv) // want `useafterput`
	return reply, err
}
