// Sources: https://github.com/uniqush/uniqush-push/issues/7 ("Memory pool
// corrupts data") and its fix
// https://github.com/uniqush/uniqush-push/commit/a4a69de5979d64ae16295f8a34525f9cb8ffcbfb
// ("we are not quite ready to use memory pool. Need to remove them all").
//
// Bug: PushServiceProvider (and DeliveryPoint) objects came from a
// per-service-type ObjectMemoryPool and went back with Recycle() as they
// were. Neither the FixedData/VolatileData maps nor the memoized name were
// cleared (the code even carried "XXX potential secrurity risk: all data in
// pspPool are not cleared"). BuildPushServiceProviderFromMap only writes the
// keys present in the request, so a recycled provider kept e.g.
// VolatileData["skipverify"] = "true" or the "addr" of its previous owner, and
// Name() returned the cached name of the old provider.
//
// Fix: Recycle() now clears the peer (maps emptied, name reset) before putting
// it back, and the Build functions stopped taking objects from the pool.
//
// Check: noreset (at psp.objPool.Recycle(psp) in Recycle: the provider goes
// back to the pool with its maps and cached name still filled)
package fixed

import (
	"crypto/sha1"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

type ObjectMemoryPool struct {
	lock  sync.Mutex
	objs  []interface{}
	maxnr int
	f     func() interface{}
}

func NewObjectMemoryPool(n int, f func() interface{}) *ObjectMemoryPool {
	return &ObjectMemoryPool{objs: make([]interface{}, 0, n), maxnr: n, f: f}
}

func (p *ObjectMemoryPool) Get() interface{} {
	p.lock.Lock()
	defer p.lock.Unlock()
	if len(p.objs) == 0 {
		return p.f()
	}
	ret := p.objs[len(p.objs)-1]
	p.objs = p.objs[:len(p.objs)-1]
	return ret
}

func (p *ObjectMemoryPool) Recycle(o interface{}) {
	p.lock.Lock()
	defer p.lock.Unlock()
	if len(p.objs) >= p.maxnr {
		return
	}
	p.objs = append(p.objs, o)
}

type PushServiceType interface {
	Name() string
	BuildPushServiceProviderFromMap(kv map[string]string, psp *PushServiceProvider) error
}

type PushPeer struct {
	name            string
	pushServiceType PushServiceType
	VolatileData    map[string]string
	FixedData       map[string]string
}

func (p *PushPeer) InitPushPeer() {
	p.pushServiceType = nil
	p.VolatileData = make(map[string]string, 2)
	p.FixedData = make(map[string]string, 2)
}

func (p *PushPeer) Name() string {
	if p.name != "" {
		return p.name
	}
	hash := sha1.New()
	if p.FixedData == nil {
		return ""
	}
	b, _ := json.Marshal(p.FixedData)
	hash.Write(b)
	h := make([]byte, 0, 64)
	p.name = fmt.Sprintf("%s:%x",
		p.pushServiceType.Name(),
		hash.Sum(h))
	return p.name
}

func (p *PushPeer) clear() {
	for k := range p.FixedData {
		delete(p.FixedData, k)
	}
	for k := range p.VolatileData {
		delete(p.VolatileData, k)
	}
	p.name = ""
}

type PushServiceProvider struct {
	PushPeer
	objPool *ObjectMemoryPool
}

func NewEmptyPushServiceProvider() *PushServiceProvider {
	psp := new(PushServiceProvider)
	psp.InitPushPeer()
	return psp
}

func (psp *PushServiceProvider) Recycle() {
	if psp.objPool != nil {
		psp.clear()
		psp.objPool.Recycle(psp)
	}
}

type apnsPushService struct{}

func (p *apnsPushService) Name() string { return "apns" }

func (p *apnsPushService) BuildPushServiceProviderFromMap(kv map[string]string, psp *PushServiceProvider) error {
	if service, ok := kv["service"]; ok {
		psp.FixedData["service"] = service
	} else {
		return errors.New("NoService")
	}
	if cert, ok := kv["cert"]; ok && len(cert) > 0 {
		psp.FixedData["cert"] = cert
	} else {
		return errors.New("NoCertificate")
	}
	if skip, ok := kv["skipverify"]; ok {
		if skip == "true" {
			psp.VolatileData["skipverify"] = "true"
		}
	}
	if sandbox, ok := kv["sandbox"]; ok {
		if sandbox == "true" {
			psp.VolatileData["addr"] = "gateway.sandbox.push.apple.com:2195"
			return nil
		}
	}
	if addr, ok := kv["addr"]; ok {
		psp.VolatileData["addr"] = addr
	}
	return nil
}

type serviceTypeObjPool struct {
	pst     PushServiceType
	pspPool *ObjectMemoryPool
}

type PushServiceManager struct {
	serviceTypes map[string]*serviceTypeObjPool
}

func (m *PushServiceManager) RegisterPushServiceType(pt PushServiceType) {
	pair := new(serviceTypeObjPool)
	pair.pspPool = NewObjectMemoryPool(1024, func() interface{} { return NewEmptyPushServiceProvider() })
	pair.pst = pt
	m.serviceTypes[pt.Name()] = pair
}

func (m *PushServiceManager) BuildPushServiceProviderFromMap(kv map[string]string) (psp *PushServiceProvider, err error) {
	if ptname, ok := kv["pushservicetype"]; ok {
		if pair, ok := m.serviceTypes[ptname]; ok {
			// XXX We are not ready to use pool
			// pspif := pair.pspPool.Get()
			// psp = pspif.(*PushServiceProvider)
			// psp.objPool = pair.pspPool
			psp = NewEmptyPushServiceProvider()
			psp.objPool = nil
			pst := pair.pst
			err = pst.BuildPushServiceProviderFromMap(kv, psp)
			if err != nil {
				psp.Recycle()
				return nil, err
			}
			psp.pushServiceType = pst
			return
		}
		return nil, errors.New("Unknown Push Service Type")
	}
	return nil, errors.New("No Push Service Type Specified")
}
