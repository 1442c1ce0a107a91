// Source: https://github.com/wazero/wazero/pull/1828
// (commit d3b83a596cde165d0fe69bc4992f31801e516be3, "wazevo(ssa): resets loop
// header flag"; branch commit ab54b016dcd559695981583ac44271d3b5c044c9).
//
// Bug: wazevo's SSA builder allocates its basic blocks from a
// wazevoapi.Pool[basicBlock], the project's own paged free list. The pool is
// Reset() by builder.Init for every function compiled, and Allocate() hands out
// the same *basicBlock slots again after running the reset function
// resetBasicBlock on them. resetBasicBlock cleared params, preds, successors,
// maps, reversePostOrder, loopNestingForestChildren ... but not loopHeader,
// which subPassLoopDetection sets to true. A block recycled for the next
// function kept loopHeader=true from the previous function, so
// buildLoopNestingForest and the branch-inversion heuristics of LayoutBlocks
// treated ordinary blocks as loop headers.
//
// Fix: resetBasicBlock also sets bb.loopHeader = false.
//
// Check: noreset (at resetBasicBlock, the pool's reset function, which forgets
// the loopHeader field that the previous user of the pooled block set)
package fixed

const poolPageSize = 128

// Pool is a pool of T that can be allocated and reset.
type Pool[T any] struct {
	pages            []*[poolPageSize]T
	resetFn          func(*T)
	allocated, index int
}

// NewPool returns a new Pool.
// resetFn is called when a new T is allocated in Pool.Allocate.
func NewPool[T any](resetFn func(*T)) Pool[T] {
	var ret Pool[T]
	ret.resetFn = resetFn
	ret.Reset()
	return ret
}

// Allocated returns the number of allocated T currently in the pool.
func (p *Pool[T]) Allocated() int { return p.allocated }

// Allocate allocates a new T from the pool.
func (p *Pool[T]) Allocate() *T {
	if p.index == poolPageSize {
		if len(p.pages) == cap(p.pages) {
			p.pages = append(p.pages, new([poolPageSize]T))
		} else {
			i := len(p.pages)
			p.pages = p.pages[:i+1]
			if p.pages[i] == nil {
				p.pages[i] = new([poolPageSize]T)
			}
		}
		p.index = 0
	}
	ret := &p.pages[len(p.pages)-1][p.index]
	p.resetFn(ret)
	p.index++
	p.allocated++
	return ret
}

// View returns the pointer to i-th item from the pool.
func (p *Pool[T]) View(i int) *T {
	page, index := i/poolPageSize, i%poolPageSize
	return &p.pages[page][index]
}

// Reset resets the pool.
func (p *Pool[T]) Reset() {
	p.pages = p.pages[:0]
	p.index = poolPageSize
	p.allocated = 0
}

type (
	Variable     uint32
	Value        uint64
	BasicBlockID uint32
)

type basicBlockPredecessorInfo struct {
	blk *basicBlock
}

type basicBlock struct {
	id                        BasicBlockID
	params                    []Value
	preds                     []basicBlockPredecessorInfo
	success                   []*basicBlock
	singlePred                *basicBlock
	lastDefinitions           map[Variable]Value
	unknownValues             map[Variable]Value
	invalid, sealed           bool
	loopHeader                bool
	loopNestingForestChildren []*basicBlock
	reversePostOrder          int
}

// reset resets the basicBlock to its initial state so that it can be reused for another function.
func resetBasicBlock(bb *basicBlock) {
	bb.params = bb.params[:0]
	bb.preds = bb.preds[:0]
	bb.success = bb.success[:0]
	bb.invalid, bb.sealed = false, false
	bb.singlePred = nil
	// TODO: reuse the map!
	bb.unknownValues = make(map[Variable]Value)
	bb.lastDefinitions = make(map[Variable]Value)
	bb.reversePostOrder = -1
	bb.loopNestingForestChildren = bb.loopNestingForestChildren[:0]
	bb.loopHeader = false
}

type builder struct {
	basicBlocksPool        Pool[basicBlock]
	returnBlk              *basicBlock
	dominators             []*basicBlock
	loopNestingForestRoots []*basicBlock
	isDominatedBy          func(n, d *basicBlock) bool
}

func NewBuilder() *builder {
	return &builder{
		basicBlocksPool: NewPool[basicBlock](resetBasicBlock),
		returnBlk:       &basicBlock{id: 0xffffffff},
	}
}

// Init is called before compiling each function.
func (b *builder) Init() {
	resetBasicBlock(b.returnBlk)
	b.dominators = b.dominators[:0]
	b.loopNestingForestRoots = b.loopNestingForestRoots[:0]
	b.basicBlocksPool.Reset()
}

// allocateBasicBlock allocates a new basicBlock.
func (b *builder) allocateBasicBlock() *basicBlock {
	id := BasicBlockID(b.basicBlocksPool.Allocated())
	blk := b.basicBlocksPool.Allocate()
	blk.id = id
	return blk
}

// subPassLoopDetection detects loops in the function using the immediate dominators.
func subPassLoopDetection(b *builder) {
	for i := 0; i < b.basicBlocksPool.Allocated(); i++ {
		blk := b.basicBlocksPool.View(i)
		for j := range blk.preds {
			pred := blk.preds[j].blk
			if pred.invalid {
				continue
			}
			if b.isDominatedBy(pred, blk) {
				blk.loopHeader = true
			}
		}
	}
}

// buildLoopNestingForest builds the loop nesting forest for the function.
func buildLoopNestingForest(b *builder, rpo []*basicBlock) {
	ent := b.basicBlocksPool.View(0)
	doms := b.dominators
	for _, blk := range rpo {
		n := doms[blk.id]
		for !n.loopHeader && n != ent {
			n = doms[n.id]
		}
		if n == ent && blk.loopHeader {
			b.loopNestingForestRoots = append(b.loopNestingForestRoots, blk)
		} else if n == ent {
		} else if n.loopHeader {
			n.loopNestingForestChildren = append(n.loopNestingForestChildren, blk)
		}
	}
}
