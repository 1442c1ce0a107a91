package bug

import "sync"

// ObjectPool is a trimmed copy of m3's x/pool.ObjectPool.
type ObjectPool interface {
	Init(alloc func() interface{})
	Get() interface{}
	Put(obj interface{})
}

type objectPool struct {
	mu     sync.Mutex
	values []interface{}
	size   int
	alloc  func() interface{}
}

// NewObjectPool creates a new pool of the given size.
func NewObjectPool(size int) ObjectPool {
	return &objectPool{size: size}
}

func (p *objectPool) Init(alloc func() interface{}) {
	p.alloc = alloc
	p.values = make([]interface{}, 0, p.size)
	for i := 0; i < p.size; i++ {
		p.values = append(p.values, alloc())
	}
}

func (p *objectPool) Get() interface{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.values); n > 0 {
		v := p.values[n-1]
		p.values = p.values[:n-1]
		return v
	}
	return p.alloc()
}

func (p *objectPool) Put(obj interface{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.values) < p.size {
		p.values = append(p.values, obj)
	}
}

// messagePool is the pool for message.
type messagePool interface {
	Init()
	Get() *message
	Put(m *message)
}

type msgPool struct {
	ObjectPool
}

func newMessagePool(size int) messagePool {
	return &msgPool{NewObjectPool(size)}
}

func (p *msgPool) Init() {
	p.ObjectPool.Init(func() interface{} {
		return newMessage()
	})
}

func (p *msgPool) Get() *message {
	return p.ObjectPool.Get().(*message)
}

func (p *msgPool) Put(m *message) {
	p.ObjectPool.Put(m)
}
