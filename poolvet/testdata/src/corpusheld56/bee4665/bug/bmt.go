// Source: https://github.com/ethersphere/bee/pull/4665
// (commit https://github.com/ethersphere/bee/commit/1c71a72238cbbac71c0d29706d2b773df2f27c20,
// "fix: proof data race", fixes ethersphere/bee#4531).
//
// Bug: bmt.Prover.Proof returned a Proof whose ProveSegment and first
// proof segment were sub-slices of the pooled tree's buffer
// (p.bmt.buffer). makeInclusionProofs took the proofs, gave the hasher (and
// with it the tree) back to bmtpool, and only afterwards read the proofs in
// NewChunkInclusionProof. Meanwhile the next bmtpool.Get() handed the same
// tree to another hasher that overwrote the buffer, so the inclusion proofs
// sent to the redistribution contract were corrupted (data race).
// Fix: Proof copies the section out of the pooled buffer before slicing it.
//
// Check: useafterput (proof1p1 aliases rccontent's pooled tree buffer and is
// read in NewChunkInclusionProof after bmtpool.Put(rccontent.Hasher)).
package bug

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
)

const SpanSize = 8

var zerosection = make([]byte, 64)

type BaseHasherFunc func() hash.Hash

// Conf is the configuration shared by the pool and its hashers.
type Conf struct {
	segmentSize  int
	segmentCount int
	capacity     int
	maxSize      int
	hasher       BaseHasherFunc
}

func NewConf(hasher BaseHasherFunc, segmentCount, capacity int) *Conf {
	segmentSize := hasher().Size()
	return &Conf{
		hasher:       hasher,
		segmentSize:  segmentSize,
		segmentCount: segmentCount,
		capacity:     capacity,
		maxSize:      segmentCount * segmentSize,
	}
}

// Pool provides a pool of trees used as resources by the BMT Hasher.
type Pool struct {
	c chan *tree
	*Conf
}

func NewPool(c *Conf) *Pool {
	p := &Pool{Conf: c, c: make(chan *tree, c.capacity)}
	for i := 0; i < c.capacity; i++ {
		p.c <- newTree(p.segmentSize, p.maxSize, p.segmentCount, p.hasher)
	}
	return p
}

// Get returns a BMT hasher possibly reusing a tree from the pool.
func (p *Pool) Get() *Hasher {
	t := <-p.c
	return &Hasher{Conf: p.Conf, span: make([]byte, SpanSize), bmt: t}
}

// Put is called after using a bmt hasher to return the tree to a pool for reuse.
func (p *Pool) Put(h *Hasher) {
	p.c <- h.bmt
}

type tree struct {
	leaves []*node
	buffer []byte
}

type node struct {
	isLeft      bool
	parent      *node
	left, right []byte
	hasher      hash.Hash
}

func newTree(segmentSize, maxsize, segmentCount int, hashfunc BaseHasherFunc) *tree {
	prevlevel := []*node{{hasher: hashfunc()}}
	for count := 2; count <= segmentCount/2; count *= 2 {
		nodes := make([]*node, count)
		for i := range nodes {
			nodes[i] = &node{parent: prevlevel[i/2], isLeft: i%2 == 0, hasher: hashfunc()}
		}
		prevlevel = nodes
	}
	return &tree{leaves: prevlevel, buffer: make([]byte, maxsize)}
}

func (n *node) getSister(isLeft bool) []byte {
	if isLeft {
		return n.right
	}
	return n.left
}

// Hasher is a reusable hasher for fixed maximum size chunks.
type Hasher struct {
	*Conf
	bmt  *tree
	size int
	span []byte
}

func (h *Hasher) SetHeaderInt64(length int64) {
	binary.LittleEndian.PutUint64(h.span, uint64(length))
}

func (h *Hasher) SetHeader(span []byte) {
	copy(h.span, span)
}

func (h *Hasher) Write(b []byte) (int, error) {
	l := len(b)
	if max := h.maxSize - h.size; l > max {
		l = max
	}
	copy(h.bmt.buffer[h.size:], b)
	h.size += l
	return l, nil
}

func (h *Hasher) Hash(b []byte) ([]byte, error) {
	copy(h.bmt.buffer[h.size:], zerosection)
	secsize := 2 * h.segmentSize
	var root []byte
	for i, n := range h.bmt.leaves {
		s := doHash(n.hasher, h.bmt.buffer[i*secsize:(i+1)*secsize])
		isLeft := n.isLeft
		for n = n.parent; n != nil; n = n.parent {
			if isLeft {
				n.left = s
				break
			}
			n.right = s
			s = doHash(n.hasher, n.left, n.right)
			isLeft = n.isLeft
		}
		root = s
	}
	return doHash(h.hasher(), h.span, root), nil
}

func doHash(h hash.Hash, data ...[]byte) []byte {
	h.Reset()
	for _, v := range data {
		h.Write(v)
	}
	return h.Sum(nil)
}

// Prover wraps the Hasher to allow Merkle proof functionality.
type Prover struct {
	*Hasher
}

// Proof represents a Merkle proof of segment.
type Proof struct {
	ProveSegment  []byte
	ProofSegments [][]byte
	Span          []byte
	Index         int
}

// Proof returns the inclusion proof of the i-th data segment.
func (p Prover) Proof(i int) Proof {
	index := i
	i = i / 2
	n := p.bmt.leaves[i]
	isLeft := n.isLeft
	var sisters [][]byte
	for n = n.parent; n != nil; n = n.parent {
		sisters = append(sisters, n.getSister(isLeft))
		isLeft = n.isLeft
	}

	secsize := 2 * p.segmentSize
	offset := i * secsize
	section := p.bmt.buffer[offset : offset+secsize]
	segment, firstSegmentSister := section[:p.segmentSize], section[p.segmentSize:]
	if index%2 != 0 {
		segment, firstSegmentSister = firstSegmentSister, segment
	}
	sisters = append([][]byte{firstSegmentSister}, sisters...)
	return Proof{segment, sisters, p.span, index}
}

// bmtpool: easy access to BMT hashers managed in a resource pool.
var instance = NewPool(NewConf(sha256.New, 128, 32))

func bmtpoolGet() *Hasher { return instance.Get() }

func bmtpoolPut(h *Hasher) { instance.Put(h) }
