package useafterput

import "sync"

// A chained setter returns its receiver: its result is the pooled object
// itself (gookit/slog 4ae7f8a's Logger.WithField).

type rsRecord struct{ fields map[string]any }

func (r *rsRecord) With(k string, v any) *rsRecord { // want With:`pool:alias`
	if r == nil {
		return nil
	}
	if r.fields == nil {
		r.fields = map[string]any{}
	}
	r.fields[k] = v
	return r
}

var rsPool = sync.Pool{New: func() any { return new(rsRecord) }}

func rsRelease(r *rsRecord) {
	r.fields = nil
	rsPool.Put(r)
}

func rsWithField(k string, v any) *rsRecord {
	r := rsPool.Get().(*rsRecord)
	defer rsRelease(r)
	return r.With(k, v) // want `returned value shares memory with r, which the deferred Put at line 30 gives back to the pool`
}

// Silent: the record is released after it has been used.
func rsLog(k string, v any) int {
	r := rsPool.Get().(*rsRecord)
	n := len(r.With(k, v).fields)
	rsRelease(r)
	return n
}

// Silent: a method that returns a new object, not its receiver.
func (r *rsRecord) clone() *rsRecord {
	c := &rsRecord{fields: map[string]any{}}
	for k, v := range r.fields {
		c.fields[k] = v
	}
	return c
}

func rsSnapshot() *rsRecord {
	r := rsPool.Get().(*rsRecord)
	defer rsRelease(r)
	return r.clone()
}
