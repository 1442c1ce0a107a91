// Package fixed is the fix agreed on smallnest/rpcx#748
// (https://github.com/smallnest/rpcx/issues/748): a service method that
// keeps the request beyond the call sends a deep copy, so the pooled
// argument is no longer referenced when the server puts it back.
package fixed

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

// HandleCall queues a copy of the request that the writer owns.
func (s *Service) HandleCall(req *Args, res *Reply) error {
	cp := &Args{ID: req.ID, Payload: req.Payload}
	s.queue <- cp
	res.OK = true
	return nil
}

func handleRequest(s *Service, id int64, payload string) (*Reply, error) {
	argv := argsPool.Get().(*Args)
	argv.ID = id
	argv.Payload = payload

	reply := new(Reply)
	err := s.HandleCall(argv, reply)

	argv.Reset()
	argsPool.Put(argv)
	return reply, err
}
