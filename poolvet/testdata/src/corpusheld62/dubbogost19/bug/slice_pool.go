package bug

const (
	minShift = 6
	maxShift = 18
)

var (
	defaultSlicePool *SlicePool
)

func init() {
	defaultSlicePool = NewSlicePool()
}

// SlicePool is []byte pools
// Deprecated
type SlicePool struct {
	BytesPool
}

// NewSlicePool returns SlicePool
// Deprecated
// instead by NewBytesPool
func NewSlicePool() *SlicePool {
	sizes := make([]int, 0, maxShift-minShift+1)
	for i := minShift; i <= maxShift; i++ {
		sizes = append(sizes, 1<<uint(i))
	}
	p := &SlicePool{
		*NewBytesPool(sizes),
	}
	return p
}

// Get returns *[]byte from SlicePool
func (p *SlicePool) Get(size int) *[]byte {
	b := p.AcquireBytes(size)
	return &b
}

// Put returns *[]byte to SlicePool
func (p *SlicePool) Put(buf *[]byte) {
	p.ReleaseBytes(*buf)
}

// GetBytes returns *[]byte from SlicePool
// Deprecated
// instead by AcquireBytes
func GetBytes(size int) *[]byte {
	return defaultSlicePool.Get(size)
}

// PutBytes Put *[]byte to SlicePool
// Deprecated
// instead by ReleaseBytes
func PutBytes(buf *[]byte) {
	defaultSlicePool.Put(buf)
}
