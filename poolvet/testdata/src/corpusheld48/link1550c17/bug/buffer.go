package bug

import "sync/atomic"

type Buffer struct {
	*mem
	ReadPos int
	pool    *MemPool
}

func MakeBuffer(size, capacity int) *Buffer {
	return NewBuffer(make([]byte, size, capacity))
}

func NewBuffer(data []byte) *Buffer {
	return &Buffer{mem: &mem{Data: data}}
}

func NewPoolBuffer(size, capacity int, pool *MemPool) *Buffer {
	if pool == nil {
		return MakeBuffer(size, capacity)
	}
	return &Buffer{
		mem:  pool.Alloc(size, capacity),
		pool: pool,
	}
}

func (b *Buffer) free() {
	if b.pool != nil {
		b.pool.Free(b.mem)
	}
}

func (b *Buffer) grows(n int) (i int) {
	i = len(b.Data)

	newLen := len(b.Data) + n
	if cap(b.Data) >= newLen {
		b.Data = b.Data[:newLen]
		return
	}

	if b.pool != nil && newLen <= b.pool.max {
		mem := b.pool.Alloc(newLen, newLen)
		copy(mem.Data, b.Data)
		b.pool.Free(b.mem)
		b.mem = mem
	}

	data := make([]byte, newLen, cap(b.Data)/4+newLen)
	copy(data, b.Data)
	b.Data = data

	return
}

func (b *Buffer) WriteBytes(p []byte) {
	i := b.grows(len(p))
	copy(b.Data[i:], p)
}

// Message is encoded into a Buffer by a Codec.
type Message interface {
	Encode(b *Buffer) error
}

type broadcast struct {
	*Buffer
	refNum int32
}

func (bc *broadcast) Free() {
	if atomic.AddInt32(&bc.refNum, -1) == 0 {
		bc.Buffer.free()
	}
}

type Broadcaster struct {
	pool  *MemPool
	sends []func(*broadcast)
}

// Broadcast to sessions. The response only encoded once
// so the performance is better than send response one by one.
func (b *Broadcaster) Broadcast(msg Message) error {
	buffer := NewPoolBuffer(0, 1024, b.pool)
	if err := msg.Encode(buffer); err != nil {
		return err
	}

	bc := &broadcast{buffer, int32(len(b.sends))}
	for _, send := range b.sends {
		send(bc)
	}
	return nil
}
