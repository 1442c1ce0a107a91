// Source: https://github.com/gekatateam/neptunus/pull/171
// (bug introduced by https://github.com/gekatateam/neptunus/pull/169 and
// https://github.com/gekatateam/neptunus/pull/170; fix in commit
// https://github.com/gekatateam/neptunus/commit/38513c53ba91f3c2cf5d2095549e7a4b9dee49f7).
//
// Bug: the json serializer took a *bytes.Buffer from the shared
// baiscpools.BytesBuffer pool (a generic wrapper over sync.Pool), deferred
// buf.Reset() and BytesBuffer.Put(buf), and returned buf.Bytes(). The
// returned slice aliases the pooled buffer's backing array, so once the
// buffer was back in the pool the next Serialize call (from another output
// goroutine) overwrote the bytes the caller was still sending. PR #171 says
// #169/#170 were "partially rolled back due to concurrency issues".
// Fix: Serialize allocates a fresh buffer per call and passes it to the
// serialize function; the pool is no longer used there.
//
// Check: useafterput (the return of buf.Bytes() lets pooled memory outlive
// the function past the deferred BytesBuffer.Put(buf)).
package bug

import (
	"bytes"
	"sync"
)

var BytesBuffer = Pool[*bytes.Buffer]{
	p: &sync.Pool{
		New: func() any {
			return bytes.NewBuffer(make([]byte, 0, 4096))
		},
	},
}

type Pool[T any] struct{ p *sync.Pool }

func (p Pool[T]) Get() T  { return p.p.Get().(T) }
func (p Pool[T]) Put(x T) { p.p.Put(x) }
