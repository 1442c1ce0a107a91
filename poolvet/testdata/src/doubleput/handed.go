package doubleput

import "sync"

// An object handed to a holder whose release puts it, and put by its
// owner as well (m3db/m3#601, m3db/m3#218).
type handedEnc struct{ buf []byte }

var handedEncPool = sync.Pool{New: func() any { return &handedEnc{} }}

func (e *handedEnc) Finalize() { // want Finalize:`pool:put\(0\)`
	e.buf = e.buf[:0]
	handedEncPool.Put(e)
}

type handedState struct {
	enc  *handedEnc
	data []byte
}

var handedStatePool = sync.Pool{New: func() any { return &handedState{} }}

func (s *handedState) release() {
	if s.enc != nil {
		s.enc.Finalize()
	}
	s.enc, s.data = nil, nil
	handedStatePool.Put(s)
}

func handedTwice(fail bool) *handedState {
	enc := handedEncPool.Get().(*handedEnc)
	defer enc.Finalize()
	st := handedStatePool.Get().(*handedState)
	st.enc = enc
	if fail {
		st.release() // want `doubleput`
		return nil
	}
	st.enc = nil
	return st
}

// The holder clears the field before its release: not reported.
func handedCleared() {
	enc := handedEncPool.Get().(*handedEnc)
	defer enc.Finalize()
	st := handedStatePool.Get().(*handedState)
	st.enc = enc
	st.data = enc.buf
	st.enc = nil
	st.release()
}

// Only the holder puts it: not reported.
func handedOnce() {
	enc := handedEncPool.Get().(*handedEnc)
	st := handedStatePool.Get().(*handedState)
	st.enc = enc
	st.release()
}

// One or the other, never both: not reported.
func handedEither(keep bool) {
	enc := handedEncPool.Get().(*handedEnc)
	if keep {
		st := handedStatePool.Get().(*handedState)
		st.enc = enc
		st.release()
	} else {
		enc.Finalize()
	}
}

// A context that closes what is registered with it.
type handedCtx struct{ closers []*handedEnc }

func (c *handedCtx) register(e *handedEnc) { c.closers = append(c.closers, e) }

func (c *handedCtx) close() {
	for _, e := range c.closers {
		e.Finalize()
	}
	clear(c.closers)
	c.closers = c.closers[:0]
}

func handedStream(c *handedCtx) *handedEnc {
	e := handedEncPool.Get().(*handedEnc)
	c.register(e)
	return e
}

func readHanded() int {
	c := &handedCtx{}
	defer c.close() // want `doubleput`
	e := handedStream(c)
	defer e.Finalize()
	return len(e.buf)
}

// The context alone closes it: not reported.
func readHandedOnce() int {
	c := &handedCtx{}
	defer c.close()
	e := handedStream(c)
	return len(e.buf)
}
