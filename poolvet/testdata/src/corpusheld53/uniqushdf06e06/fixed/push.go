// Source: https://github.com/uniqush/uniqush-push/commit/df06e06a3167c6536211e39ef34455ce1ed01024
// ("Obj can be recycled only when they are not in memory!", uniqush/pushprocessor.go).
//
// Bug: uniqush keeps PushServiceProvider and DeliveryPoint objects in its
// own ObjectMemoryPool (a free list). Objects built from the database are
// taken from that pool, and with the cached database front desk
// (CachedUniqushDatabase) the very same *DeliveryPoint / *PushServiceProvider
// is also stored in the LRU caches and handed out to every later request.
// After each push, pushSucc/pushFail call recycle(psp, dp, n), which puts
// both objects back into their pools while the caches still hold them. The
// next BuildDeliveryPointFromBytes takes the object out of the pool and
// unmarshals another delivery point into it, silently corrupting the cached
// entry that other goroutines are pushing to.
//
// Fix: recycle() no longer puts the objects back (the calls were commented
// out with "TODO recycle only when they are not in cache!"), and the cached
// front desk was turned on again.
//
// Check: useafterput (at the two recycle calls in recycle(): each puts back
// an object that the cache keeps and hands out after the Put)
package fixed

import "strings"

type ObjectMemoryPool struct {
	objs  []interface{}
	maxnr int
	f     func() interface{}
}

func NewObjectMemoryPool(n int, f func() interface{}) *ObjectMemoryPool {
	pool := new(ObjectMemoryPool)
	pool.maxnr = n
	pool.objs = make([]interface{}, 0, n)
	pool.f = f
	return pool
}

func (p *ObjectMemoryPool) Get() interface{} {
	if len(p.objs) == 0 {
		return p.f()
	}
	ret := p.objs[len(p.objs)-1]
	p.objs = p.objs[:len(p.objs)-1]
	return ret
}

func (p *ObjectMemoryPool) Recycle(o interface{}) {
	if len(p.objs) >= p.maxnr {
		return
	}
	p.objs = append(p.objs, o)
}

type PushPeer struct {
	name string
	data map[string]string
}

func (p *PushPeer) Name() string { return p.name }

func (p *PushPeer) Unmarshal(value []byte) error {
	for _, kv := range strings.Split(string(value), ";") {
		parts := strings.SplitN(kv, "=", 2)
		if len(parts) == 2 {
			p.data[parts[0]] = parts[1]
		}
	}
	p.name = p.data["name"]
	return nil
}

type DeliveryPoint struct {
	PushPeer
	objPool *ObjectMemoryPool
}

func NewEmptyDeliveryPoint() *DeliveryPoint {
	ret := new(DeliveryPoint)
	ret.data = make(map[string]string)
	return ret
}

func (dp *DeliveryPoint) recycle() {
	if dp.objPool != nil {
		dp.objPool.Recycle(dp)
	}
}

type PushServiceProvider struct {
	PushPeer
	objPool *ObjectMemoryPool
}

func (psp *PushServiceProvider) recycle() {
	if psp.objPool != nil {
		psp.objPool.Recycle(psp)
	}
}

type PushServiceManager struct {
	dpPool *ObjectMemoryPool
}

func (m *PushServiceManager) BuildDeliveryPointFromBytes(value []byte) (dp *DeliveryPoint, err error) {
	dpif := m.dpPool.Get()
	dp = dpif.(*DeliveryPoint)
	dp.objPool = m.dpPool
	err = dp.Unmarshal(value)
	if err != nil {
		dp.recycle()
		dp = nil
		return
	}
	return
}

type dbReader interface {
	GetDeliveryPoint(name string) (*DeliveryPoint, error)
}

type CachedUniqushDatabase struct {
	dp_cache map[string]interface{}
	dbreader dbReader
}

func (cdb *CachedUniqushDatabase) GetDeliveryPoint(name string) (dp *DeliveryPoint, err error) {
	dpif := cdb.dp_cache[name]
	if dpif == nil {
		dpif, err = cdb.dbreader.GetDeliveryPoint(name)
		if err != nil || dpif == nil {
			return nil, err
		}
		cdb.dp_cache[name] = dpif
	}
	dp = dpif.(*DeliveryPoint)
	return
}

type Notification struct {
	Data map[string]string
}

type Request struct {
	ID           string
	Notification *Notification
}

type PushProcessor struct {
	logf func(format string, args ...interface{})
}

func recycle(psp *PushServiceProvider,
	dp *DeliveryPoint,
	n *Notification) {
	// TODO recycle only when they are not in cache!
	/*
		psp.recycle()
		dp.recycle()
	*/
}

func (p *PushProcessor) pushSucc(req *Request,
	subscriber string,
	psp *PushServiceProvider,
	dp *DeliveryPoint,
	id string) {
	p.logf("[PushSuccess] RequestId=%s Subscriber=%s PushServiceProvider=%s DeliveryPoint=%s MsgId=%s",
		req.ID, subscriber, psp.Name(), dp.Name(), id)
	recycle(psp, dp, req.Notification)
}
