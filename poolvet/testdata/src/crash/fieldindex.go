package crash

import "sync"

// A pooled struct of two fields whose put helper bounds fields of a
// sub-object with more fields (nats-io/nats-server's gateway subscriptions
// drew an index out of range in the fields-unlike-others rule, fixed before
// any release: the guarded fields of another struct are not the object's).

type crashSub struct {
	a, b, c, d, e, f []byte
	g                []byte
	h                []int
}

type crashSmall struct {
	sub  *crashSub
	data []byte
}

var crashSmallPool = sync.Pool{New: func() any { return &crashSmall{sub: new(crashSub)} }}

// A pooled request of two fields, the first a struct value of eight,
// handed to a callee by address (nats-server's stream.internalLoop:
// mset.getDirectRequest(&dg.req, dg.reply); dgPool.Put(dg)).
type crashDirect struct {
	req   crashSub
	reply string
}

var crashDirectPool = sync.Pool{New: func() any { return new(crashDirect) }}

func serveCrashDirect(dgs []*crashDirect) {
	for _, dg := range dgs {
		checkSub(&dg.req)
		crashDirectPool.Put(dg)
	}
}

func (s *crashSmall) fill(b []byte) {
	s.data = append(s.data, b...)
	s.sub.g = append(s.sub.g, b...)
	s.sub.h = append(s.sub.h, len(b))
}

func putCrashSmall(s *crashSmall) {
	if cap(s.sub.g) > 1024 {
		s.sub.g = nil
	}
	if cap(s.sub.h) > 1024 {
		s.sub.h = nil
	}
	crashSmallPool.Put(s)
}

func checkSub(sub *crashSub) {
	if cap(sub.g) > 1024 || cap(sub.h) > 64 {
		sub.g, sub.h = nil, nil
	}
	sub.a = append(sub.a, sub.g...)
}

func putCrashSmallVia(s *crashSmall) {
	checkSub(s.sub)
	crashSmallPool.Put(s)
}
