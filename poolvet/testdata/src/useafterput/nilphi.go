package useafterput

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// A slice that holds either nothing or a struct holding a view of the
// pooled buffer (danielgtaylor/huma#687): used after the Put.
var bodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type detail struct {
	Message string
	Value   any
}

func validate(w io.Writer, r io.Reader, into any) error {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	if _, err := buf.ReadFrom(r); err != nil {
		return err
	}
	body := buf.Bytes()
	var errs []*detail
	if err := json.Unmarshal(body, into); err != nil {
		errs = append(errs, &detail{Message: err.Error(), Value: body})
	}
	if buf.Cap() <= 1<<20 {
		bodyPool.Put(buf)
	}
	if len(errs) > 0 {
		return json.NewEncoder(w).Encode(errs) // want `buf is used after it was put back into the pool`
	}
	return nil
}

// Silent: the detail holds a copy.
func validateFixed(w io.Writer, r io.Reader, into any) error {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	if _, err := buf.ReadFrom(r); err != nil {
		return err
	}
	body := buf.Bytes()
	var errs []*detail
	if err := json.Unmarshal(body, into); err != nil {
		errs = append(errs, &detail{Message: err.Error(), Value: bytes.Clone(body)})
	}
	if buf.Cap() <= 1<<20 {
		bodyPool.Put(buf)
	}
	if len(errs) > 0 {
		return json.NewEncoder(w).Encode(errs)
	}
	return nil
}

// Silent: a pointer set to nil after its Put holds nothing on that path
// (nats-server's consumer: pmsg.returnToPool(); pmsg = nil; later
// pmsg.returnToPool() again on a nil-safe method, or pmsg returned).
type jsMsg struct{ data []byte }

var jsPool = sync.Pool{New: func() any { return new(jsMsg) }}

func (m *jsMsg) returnToPool() {
	if m == nil {
		return
	}
	m.data = m.data[:0]
	jsPool.Put(m)
}

func loadMsg(load func(*jsMsg) error) (*jsMsg, error) {
	m := jsPool.Get().(*jsMsg)
	err := load(m)
	if err != nil {
		m.returnToPool()
		m = nil
	}
	if err == io.EOF {
		m.returnToPool()
		return nil, err
	}
	return m, err
}

// Silent: a method that registers a pointer in a map field of its receiver
// takes it over (raft's pending entries): reading another field of the
// receiver after a Put on the other path is not a use.
type entry struct{ buf []byte }

var entryPool = sync.Pool{New: func() any { return new(entry) }}

type node struct {
	pending map[int]*entry
	index   int
	quorum  int
}

func (n *node) cache(e *entry) { n.pending[n.index] = e }

func (n *node) append(store bool) int {
	e := entryPool.Get().(*entry)
	if store {
		n.cache(e)
	}
	if !store {
		entryPool.Put(e)
	}
	return n.quorum
}
