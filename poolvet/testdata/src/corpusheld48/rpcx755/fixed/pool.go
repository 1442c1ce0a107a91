// Source: https://github.com/smallnest/rpcx/issues/755, fix commit
// https://github.com/smallnest/rpcx/commit/dacebc70ca535a89027a96599ea8882dbcea52c8
// ("#755 fix args to put into the pool").
//
// Bug: the rpcx server takes the argument object of every call from
// reflectTypePools (a sync.Pool per reflect.Type), decodes the request into
// it, calls the service method and then returns argv to the pool with
// reflectTypePools.Put. The file transfer service methods TransferFile and
// DownloadFile stored that args pointer in the cachedTokens LRU cache, to be
// read later when the client connects with the token. After handleRequest
// put argv back, the next request of the same type got the same object and
// decoded its own file name/size/meta into it, so the cached token pointed at
// another request's arguments.
// Fix: TransferFile and DownloadFile store args.Clone() (a fresh copy, meta
// map included) in cachedTokens.
// Check: useafterput (reflectTypePools.Put(mtype.ArgType, argv) in
// handleRequest returns argv to the pool while the service method has kept
// it in cachedTokens)
//
// Note: typePools.Put is kept as it was at the time, when it also put back
// objects that have no Reset method without resetting them; rpcx changed that
// later in a separate fix, so that older behaviour is in both twins.
package fixed

import (
	"reflect"
	"sync"
)

// Reset defines Reset method for pooled object.
type Reset interface {
	Reset()
}

var reflectTypePools = &typePools{
	pools: make(map[reflect.Type]*sync.Pool),
	New: func(t reflect.Type) interface{} {
		var argv reflect.Value

		if t.Kind() == reflect.Ptr { // reply must be ptr
			argv = reflect.New(t.Elem())
		} else {
			argv = reflect.New(t)
		}

		return argv.Interface()
	},
}

type typePools struct {
	mu    sync.RWMutex
	pools map[reflect.Type]*sync.Pool
	New   func(t reflect.Type) interface{}
}

func (p *typePools) Init(t reflect.Type) {
	tp := &sync.Pool{}
	tp.New = func() interface{} {
		return p.New(t)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pools[t] = tp
}

func (p *typePools) Put(t reflect.Type, x interface{}) {
	if o, ok := x.(Reset); ok {
		o.Reset()
	}

	p.mu.RLock()
	pool := p.pools[t]
	p.mu.RUnlock()
	pool.Put(x)
}

func (p *typePools) Get(t reflect.Type) interface{} {
	p.mu.RLock()
	pool := p.pools[t]
	p.mu.RUnlock()

	return pool.Get()
}
