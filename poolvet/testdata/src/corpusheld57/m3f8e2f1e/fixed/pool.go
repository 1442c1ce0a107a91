// Source: https://github.com/m3db/m3/commit/f8e2f1e05555e6a4352ef32ada51369d1d4ddda5
// ("Don't return large slices back to pool"); files
// network/server/tchannelthrift/pool.go and
// network/server/tchannelthrift/node/service.go (m3db history, the change
// that added pooling of fetch-blocks-metadata results).
//
// Bug: FetchBlocksMetadataRaw takes []*BlocksMetadata and []*BlockMetadata
// slices from object pools and appends one element per fetched series /
// block, so a large page grows them past their pooled capacity. When the
// request context closes, OnClose truncates them to [:0] and puts them back
// with no size limit, so the pools end up holding the largest slices ever
// built.
//
// Fix: both slice pools' Put return early for nil slices and for slices
// whose capacity exceeds the pool's configured capacity.
//
// Check: unbounded (blockMetadataSlicePool.Put and blocksMetadataSlicePool.Put
// put back slices grown by append with no capacity limit)
package fixed

// ObjectPool is a trimmed copy of m3x pool.ObjectPool (channel backed).
type ObjectPool interface {
	Init(alloc func() interface{})
	Get() interface{}
	Put(obj interface{})
}

type objectPool struct {
	values chan interface{}
	alloc  func() interface{}
}

func NewObjectPool(size int) ObjectPool {
	return &objectPool{values: make(chan interface{}, size)}
}

func (p *objectPool) Init(alloc func() interface{}) {
	p.alloc = alloc
	for i := 0; i < cap(p.values); i++ {
		p.values <- alloc()
	}
}

func (p *objectPool) Get() interface{} {
	select {
	case v := <-p.values:
		return v
	default:
		return p.alloc()
	}
}

func (p *objectPool) Put(obj interface{}) {
	select {
	case p.values <- obj:
	default:
	}
}

// rpc types

type BlockMetadata struct {
	Start    int64
	Size     int64
	Checksum *int64
}

type BlocksMetadata struct {
	ID     []byte
	Blocks []*BlockMetadata
}

type FetchBlocksMetadataRawResult struct {
	Elements      []*BlocksMetadata
	NextPageToken *int64
}

// tchannelthrift/pool.go

var (
	emptyBlockMetadata  BlockMetadata
	emptyBlocksMetadata BlocksMetadata
)

type blockMetadataPool struct {
	pool ObjectPool
}

func NewBlockMetadataPool(size int) *blockMetadataPool {
	p := NewObjectPool(size)
	p.Init(func() interface{} {
		return &BlockMetadata{}
	})
	return &blockMetadataPool{pool: p}
}

func (p *blockMetadataPool) Get() *BlockMetadata {
	return p.pool.Get().(*BlockMetadata)
}

func (p *blockMetadataPool) Put(metadata *BlockMetadata) {
	if metadata != nil {
		*metadata = emptyBlockMetadata
		p.pool.Put(metadata)
	}
}

type blockMetadataSlicePool struct {
	pool     ObjectPool
	capacity int
}

func NewBlockMetadataSlicePool(size, capacity int) *blockMetadataSlicePool {
	p := NewObjectPool(size)
	p.Init(func() interface{} {
		return make([]*BlockMetadata, 0, capacity)
	})
	return &blockMetadataSlicePool{pool: p, capacity: capacity}
}

func (p *blockMetadataSlicePool) Get() []*BlockMetadata {
	return p.pool.Get().([]*BlockMetadata)
}

func (p *blockMetadataSlicePool) Put(res []*BlockMetadata) {
	if res == nil || cap(res) > p.capacity {
		// Don't return nil or large slices back to pool
		return
	}
	res = res[:0]
	p.pool.Put(res)
}

type blocksMetadataPool struct {
	pool ObjectPool
}

func NewBlocksMetadataPool(size int) *blocksMetadataPool {
	p := NewObjectPool(size)
	p.Init(func() interface{} {
		return &BlocksMetadata{}
	})
	return &blocksMetadataPool{pool: p}
}

func (p *blocksMetadataPool) Get() *BlocksMetadata {
	return p.pool.Get().(*BlocksMetadata)
}

func (p *blocksMetadataPool) Put(metadata *BlocksMetadata) {
	if metadata != nil {
		*metadata = emptyBlocksMetadata
		p.pool.Put(metadata)
	}
}

type blocksMetadataSlicePool struct {
	pool     ObjectPool
	capacity int
}

func NewBlocksMetadataSlicePool(size, capacity int) *blocksMetadataSlicePool {
	p := NewObjectPool(size)
	p.Init(func() interface{} {
		return make([]*BlocksMetadata, 0, capacity)
	})
	return &blocksMetadataSlicePool{pool: p, capacity: capacity}
}

func (p *blocksMetadataSlicePool) Get() []*BlocksMetadata {
	return p.pool.Get().([]*BlocksMetadata)
}

func (p *blocksMetadataSlicePool) Put(res []*BlocksMetadata) {
	if res == nil || cap(res) > p.capacity {
		// Don't return nil or large slices back to pool
		return
	}
	res = res[:0]
	p.pool.Put(res)
}

// node/service.go

type fetchedBlock struct {
	Start    int64
	Size     int64
	Checksum *uint32
}

type fetchedSeries struct {
	ID     []byte
	Blocks []fetchedBlock
}

type closer interface{ OnClose() }

type Context struct {
	closers []closer
}

func (c *Context) RegisterCloser(cl closer) { c.closers = append(c.closers, cl) }

func (c *Context) Close() {
	for _, cl := range c.closers {
		cl.OnClose()
	}
	c.closers = nil
}

type service struct {
	blockMetadataPool       *blockMetadataPool
	blockMetadataSlicePool  *blockMetadataSlicePool
	blocksMetadataPool      *blocksMetadataPool
	blocksMetadataSlicePool *blocksMetadataSlicePool
}

type closeableMetadataResult struct {
	s      *service
	result *FetchBlocksMetadataRawResult
}

func (s *service) newCloseableMetadataResult(res *FetchBlocksMetadataRawResult) closeableMetadataResult {
	return closeableMetadataResult{s: s, result: res}
}

func (c closeableMetadataResult) OnClose() {
	for _, blocksMetadata := range c.result.Elements {
		for _, blockMetadata := range blocksMetadata.Blocks {
			c.s.blockMetadataPool.Put(blockMetadata)
		}
		c.s.blockMetadataSlicePool.Put(blocksMetadata.Blocks)
		c.s.blocksMetadataPool.Put(blocksMetadata)
	}
	c.s.blocksMetadataSlicePool.Put(c.result.Elements)
}

func (s *service) FetchBlocksMetadataRaw(ctx *Context, fetchedResults []fetchedSeries) (*FetchBlocksMetadataRawResult, error) {
	result := &FetchBlocksMetadataRawResult{}
	result.Elements = s.blocksMetadataSlicePool.Get()

	// NB(xichen): register a closer with context so objects are returned to pool
	// when we are done using them
	ctx.RegisterCloser(s.newCloseableMetadataResult(result))

	for _, fetchedMetadata := range fetchedResults {
		blocksMetadata := s.blocksMetadataPool.Get()
		blocksMetadata.ID = fetchedMetadata.ID
		blocksMetadata.Blocks = s.blockMetadataSlicePool.Get()

		for _, fetchedMetadataBlock := range fetchedMetadata.Blocks {
			blockMetadata := s.blockMetadataPool.Get()
			blockMetadata.Start = fetchedMetadataBlock.Start
			blockMetadata.Size = fetchedMetadataBlock.Size

			if checksum := fetchedMetadataBlock.Checksum; checksum != nil {
				value := int64(*checksum)
				blockMetadata.Checksum = &value
			}

			blocksMetadata.Blocks = append(blocksMetadata.Blocks, blockMetadata)
		}
		result.Elements = append(result.Elements, blocksMetadata)
	}

	return result, nil
}
