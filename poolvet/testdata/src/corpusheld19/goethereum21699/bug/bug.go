// Package bug reproduces the shape of ethereum/go-ethereum#21699
// (https://github.com/ethereum/go-ethereum/pull/21699, "trie: fix flaw in
// stacktrie pool reuse"): StackTrie nodes come from stPool and go back through
// returnToPool, which calls Reset and Put. A leaf stores the caller's value
// slice as-is (st.val = val), and hash() later rewrites st.val in place with
// append(st.val[:0], ...). Reset only truncated val (st.val = st.val[:0]), so a
// recycled node kept the backing array of some earlier caller's value, and the
// next hash() on that node scribbled the encoding over the caller's bytes.
// The fix makes Reset drop the slice (st.val = nil).
//
// Check: noreset (Reset truncates st.val instead of releasing the caller-owned
// array before the node goes back to stPool).
package bug

import (
	"crypto/sha256"
	"sync"
)

var emptyRoot = sha256.Sum256(nil)

const (
	emptyNode = iota
	branchNode
	leafNode
	hashedNode
)

var stPool = sync.Pool{
	New: func() interface{} {
		return NewStackTrie()
	},
}

func stackTrieFromPool() *StackTrie {
	return stPool.Get().(*StackTrie)
}

func returnToPool(st *StackTrie) {
	st.Reset()
	stPool.Put(st)
}

// StackTrie hashes keys inserted in order; keys are nibble strings.
type StackTrie struct {
	nodeType  uint8
	val       []byte // leaf value, or the hash/encoding once hashed
	key       []byte // key chunk of this node
	keyOffset int
	children  [16]*StackTrie
}

func NewStackTrie() *StackTrie {
	return &StackTrie{nodeType: emptyNode}
}

func newLeaf(ko int, key, val []byte) *StackTrie {
	st := stackTrieFromPool()
	st.nodeType = leafNode
	st.keyOffset = ko
	st.key = append(st.key, key[ko:]...)
	st.val = val
	return st
}

// Reset prepares the node for reuse.
func (st *StackTrie) Reset() {
	st.key = st.key[:0]
	st.val = st.val[:0] // want `noreset`
	for i := range st.children {
		st.children[i] = nil
	}
	st.nodeType = emptyNode
	st.keyOffset = 0
}

// Update inserts value under the nibble key; keys must arrive in order.
func (st *StackTrie) Update(key, value []byte) {
	if len(value) == 0 {
		panic("deletion not supported")
	}
	st.insert(key, value)
}

func (st *StackTrie) insert(key, value []byte) {
	switch st.nodeType {
	case branchNode:
		idx := int(key[st.keyOffset])
		for i := idx - 1; i >= 0; i-- {
			if st.children[i] != nil {
				if st.children[i].nodeType != hashedNode {
					st.children[i].hash()
				}
				break
			}
		}
		if st.children[idx] == nil {
			st.children[idx] = stackTrieFromPool()
			st.children[idx].keyOffset = st.keyOffset + 1
		}
		st.children[idx].insert(key, value)
	case leafNode:
		// Simplified split: the leaf becomes a branch at its own offset and
		// both values move into fresh leaves below it.
		origIdx := st.key[0]
		newIdx := key[st.keyOffset]
		if origIdx == newIdx {
			panic("shared prefixes are not supported in this model")
		}
		fullKey := make([]byte, st.keyOffset, st.keyOffset+len(st.key))
		fullKey = append(fullKey, st.key...)
		st.children[origIdx] = newLeaf(st.keyOffset+1, fullKey, st.val)
		st.children[origIdx].hash()
		st.children[newIdx] = newLeaf(st.keyOffset+1, key, value)
		st.nodeType = branchNode
		st.key = st.key[:0]
		st.val = nil
	case emptyNode:
		st.nodeType = leafNode
		st.key = append(st.key, key[st.keyOffset:]...)
		st.val = value
	case hashedNode:
		panic("trying to insert into hash")
	}
}

// hash replaces the node's content by its encoding (short) or its hash.
func (st *StackTrie) hash() {
	if st.nodeType == hashedNode {
		return
	}
	var tmp []byte
	switch st.nodeType {
	case branchNode:
		for i, child := range st.children {
			if child == nil {
				tmp = append(tmp, 0x80)
				continue
			}
			child.hash()
			tmp = append(tmp, child.val...)
			st.children[i] = nil
			returnToPool(child)
		}
	case leafNode:
		tmp = append(tmp, byte(len(st.key)))
		tmp = append(tmp, st.key...)
		tmp = append(tmp, st.val...)
	case emptyNode:
		st.val = st.val[:0]
		st.val = append(st.val, emptyRoot[:]...)
		st.key = st.key[:0]
		st.nodeType = hashedNode
		return
	}
	st.key = st.key[:0]
	st.nodeType = hashedNode
	if len(tmp) < 32 {
		st.val = st.val[:0]
		st.val = append(st.val, tmp...)
		return
	}
	if required := 32 - len(st.val); required > 0 {
		st.val = append(st.val, make([]byte, required)...)
	}
	st.val = st.val[:32]
	sum := sha256.Sum256(tmp)
	copy(st.val, sum[:])
}

// Hash returns the root hash.
func (st *StackTrie) Hash() [32]byte {
	st.hash()
	if len(st.val) != 32 {
		return sha256.Sum256(st.val)
	}
	var h [32]byte
	copy(h[:], st.val)
	return h
}
