// Source: https://github.com/ikawaha/kagome/commit/a1f388be0471964dfc35e3bbd25b61bb3caa01dc
// ("Initialize the node cost", released in kagome v1.11.1; the author's
// release post "kagome v1.11.1 ... sync.Pool にまつわるバグの修正" describes
// users getting strange tokenizations after the tokenizer had run a while).
//
// Bug: lattice nodes come from nodePool. Lattice.Free puts every node of the
// lattice back as it is, and addNode, which initializes a node taken from the
// pool, sets every field but Cost. Forward never computes the cost of the BOS
// node in la.list[0] (its loop starts at 1), so the BOS node keeps the Cost of
// whatever the node was last used for, and the Viterbi search of the next
// sentence starts from that stale cost.
// Fix: addNode sets n.Cost = 0 on the node it takes from the pool.
//
// Check: noreset (Free puts nodes back with their Cost, and addNode, the
// initializer of pooled nodes, does not clear it)
package bug

import (
	"sync"
	"unicode/utf8"
)

const maximumCost = 1<<31 - 1

// BosEosID represents Reserved identifier of node id.
const BosEosID int = -1

// NodeClass codes.
const (
	DUMMY NodeClass = iota
	KNOWN
	UNKNOWN
	USER
)

// NodeClass represents a node type.
type NodeClass int

type node struct {
	ID      int
	Start   int
	Class   NodeClass
	Cost    int32
	Left    int32
	Right   int32
	Weight  int32
	Surface string
	Prev    *node
}

var nodePool = sync.Pool{
	New: func() interface{} {
		return new(node)
	},
}

func newNode() *node {
	return nodePool.Get().(*node)
}

// Morph represents part of speeches and an occurrence cost.
type Morph struct {
	LeftID, RightID, Weight int16
}

// ConnectionTable represents a connection matrix of morphs.
type ConnectionTable struct {
	Row, Col int64
	Vec      []int16
}

// At returns the connection cost of matrix[row, col].
func (t *ConnectionTable) At(row, col int) int16 {
	return t.Vec[t.Col*int64(row)+int64(col)]
}

// Dic represents a dictionary of a tokenizer.
type Dic struct {
	Morphs     []Morph
	Words      []string
	Connection ConnectionTable
}

// CommonPrefixSearchCallback calls f for every word that is a prefix of input.
func (d *Dic) CommonPrefixSearchCallback(input string, f func(id, l int)) {
	for id, w := range d.Words {
		if len(w) <= len(input) && input[:len(w)] == w {
			f(id, len(w))
		}
	}
}

var latticePool = sync.Pool{
	New: func() interface{} {
		return new(Lattice)
	},
}

// Lattice represents a grid of morph nodes.
type Lattice struct {
	Input  string
	Output []*node
	list   [][]*node
	dic    *Dic
}

// New returns a new lattice.
func New(d *Dic) *Lattice {
	la := latticePool.Get().(*Lattice)
	la.dic = d
	return la
}

// Free releases a memory of a lattice.
func (la *Lattice) Free() {
	la.Input = ""
	la.Output = la.Output[:0]
	for i := range la.list {
		for j := range la.list[i] {
			nodePool.Put(la.list[i][j]) // want `noreset`
		}
		la.list[i] = la.list[i][:0]
	}
	la.list = la.list[:0]
	latticePool.Put(la)
}

func (la *Lattice) addNode(pos, id, start int, class NodeClass, surface string) {
	var m Morph
	switch class {
	case DUMMY:
		//use default cost
	case KNOWN:
		m = la.dic.Morphs[id]
	}
	n := newNode()
	n.ID = id
	n.Start = start
	n.Class = class
	n.Left, n.Right, n.Weight = int32(m.LeftID), int32(m.RightID), int32(m.Weight)
	n.Surface = surface
	n.Prev = nil
	p := pos + utf8.RuneCountInString(surface)
	la.list[p] = append(la.list[p], n)
}

// Build builds a lattice from the inputs.
func (la *Lattice) Build(inp string) {
	rc := utf8.RuneCountInString(inp)
	la.Input = inp
	if cap(la.list) < rc+2 {
		const expandRatio = 2
		la.list = make([][]*node, 0, (rc+2)*expandRatio)
	}
	la.list = la.list[0 : rc+2]

	la.addNode(0, BosEosID, 0, DUMMY, inp[0:0])
	la.addNode(rc+1, BosEosID, rc, DUMMY, inp[rc:rc])

	runePos := -1
	for pos := range inp {
		runePos++
		la.dic.CommonPrefixSearchCallback(inp[pos:], func(id, l int) {
			la.addNode(runePos, id, runePos, KNOWN, inp[pos:pos+l])
		})
	}
}

// Forward runs forward algorithm of the Viterbi.
func (la *Lattice) Forward() {
	for i, size := 1, len(la.list); i < size; i++ {
		currentList := la.list[i]
		for index, target := range currentList {
			prevList := la.list[target.Start]
			if len(prevList) == 0 {
				la.list[i][index].Cost = maximumCost
				continue
			}
			for j, n := range prevList {
				c := la.dic.Connection.At(int(n.Right), int(target.Left))
				totalCost := int64(c) + int64(target.Weight) + int64(n.Cost)
				if totalCost > maximumCost {
					totalCost = maximumCost
				}
				if j == 0 || int32(totalCost) < la.list[i][index].Cost {
					la.list[i][index].Cost = int32(totalCost)
					la.list[i][index].Prev = la.list[target.Start][j]
				}
			}
		}
	}
}

// Backward runs backward algorithm of the Viterbi.
func (la *Lattice) Backward() {
	const bufferExpandRatio = 2
	size := len(la.list)
	if size == 0 {
		return
	}
	if cap(la.Output) < size {
		la.Output = make([]*node, 0, size*bufferExpandRatio)
	} else {
		la.Output = la.Output[:0]
	}
	for p := la.list[size-1][0]; p != nil; p = p.Prev {
		la.Output = append(la.Output, p)
	}
}

// Tokenize splits input into surfaces the way kagome's Tokenizer.Analyze does.
func Tokenize(d *Dic, input string) []string {
	la := New(d)
	defer la.Free()
	la.Build(input)
	la.Forward()
	la.Backward()
	var ret []string
	for i := len(la.Output) - 1; i >= 0; i-- {
		ret = append(ret, la.Output[i].Surface)
	}
	return ret
}
