// Source: https://github.com/google/btree/pull/11
// (commit dd6020083c1beb75a350c68be7f503f16ae090f2, "Fix memory leak in
// freeNode and splitNode").
//
// Bug: BTree recycles nodes through a FreeList (a slice of *node). split
// shrinks a node with n.items = n.items[:i] and n.children =
// n.children[:i+1], leaving the items and child pointers past the new length
// in the backing arrays. When such a node is later merged away and handed to
// freeNode, freeNode only nils the slots in range n.items / n.children (up to
// len), so the node goes back on the free list still referencing items and
// subtrees of its earlier life, keeping them alive (memory leak) and handing
// them to the next user of the node. In addition FreeList.newNode left the
// handed-out node in the free list's backing array.
//
// Fix: add items.truncate / children.truncate, which nil every slot from the
// new length up to the old length; use them in split and in freeNode; nil the
// slot in FreeList.newNode.
//
// (growChildAndRemove's merge branch is trimmed here to mergeChildren.)
//
// Check: noreset (freeNode puts the node back on the free list with stale
// item and child references left beyond len by split)
package fixed

import "sort"

// Item represents a single object in the tree.
type Item interface {
	Less(than Item) bool
}

const DefaultFreeListSize = 32

// FreeList represents a free list of btree nodes.
type FreeList struct {
	freelist []*node
}

// NewFreeList creates a new free list.
func NewFreeList(size int) *FreeList {
	return &FreeList{freelist: make([]*node, 0, size)}
}

func (f *FreeList) newNode() (n *node) {
	index := len(f.freelist) - 1
	if index < 0 {
		return new(node)
	}
	n = f.freelist[index]
	f.freelist[index] = nil
	f.freelist = f.freelist[:index]
	return
}

func (f *FreeList) freeNode(n *node) {
	if len(f.freelist) < cap(f.freelist) {
		f.freelist = append(f.freelist, n)
	}
}

// New creates a new B-Tree with the given degree.
func New(degree int) *BTree {
	if degree <= 1 {
		panic("bad degree")
	}
	return &BTree{degree: degree, freelist: NewFreeList(DefaultFreeListSize)}
}

// items stores items in a node.
type items []Item

func (s *items) insertAt(index int, item Item) {
	*s = append(*s, nil)
	if index < len(*s) {
		copy((*s)[index+1:], (*s)[index:])
	}
	(*s)[index] = item
}

func (s *items) removeAt(index int) Item {
	item := (*s)[index]
	copy((*s)[index:], (*s)[index+1:])
	(*s)[len(*s)-1] = nil
	*s = (*s)[:len(*s)-1]
	return item
}

// truncate truncates this instance at index so that it contains only the
// first index items. index must be less than or equal to length.
func (s *items) truncate(index int) {
	l := len(*s)
	for i := index; i < l; i++ {
		(*s)[i] = nil
	}
	*s = (*s)[:index]
}

func (s items) find(item Item) (index int, found bool) {
	i := sort.Search(len(s), func(i int) bool {
		return item.Less(s[i])
	})
	if i > 0 && !s[i-1].Less(item) {
		return i - 1, true
	}
	return i, false
}

// children stores child nodes in a node.
type children []*node

func (s *children) insertAt(index int, n *node) {
	*s = append(*s, nil)
	if index < len(*s) {
		copy((*s)[index+1:], (*s)[index:])
	}
	(*s)[index] = n
}

func (s *children) removeAt(index int) *node {
	n := (*s)[index]
	copy((*s)[index:], (*s)[index+1:])
	(*s)[len(*s)-1] = nil
	*s = (*s)[:len(*s)-1]
	return n
}

// truncate truncates this instance at index so that it contains only the
// first index children. index must be less than or equal to length.
func (s *children) truncate(index int) {
	l := len(*s)
	for i := index; i < l; i++ {
		(*s)[i] = nil
	}
	*s = (*s)[:index]
}

type node struct {
	items    items
	children children
	t        *BTree
}

// split splits the given node at the given index.
func (n *node) split(i int) (Item, *node) {
	item := n.items[i]
	next := n.t.newNode()
	next.items = append(next.items, n.items[i+1:]...)
	n.items.truncate(i)
	if len(n.children) > 0 {
		next.children = append(next.children, n.children[i+1:]...)
		n.children.truncate(i + 1)
	}
	return item, next
}

func (n *node) maybeSplitChild(i, maxItems int) bool {
	if len(n.children[i].items) < maxItems {
		return false
	}
	first := n.children[i]
	item, second := first.split(maxItems / 2)
	n.items.insertAt(i, item)
	n.children.insertAt(i+1, second)
	return true
}

// mergeChildren merges child i+1 and the separating item into child i.
func (n *node) mergeChildren(i int) {
	child := n.children[i]
	mergeItem := n.items.removeAt(i)
	mergeChild := n.children.removeAt(i + 1)
	child.items = append(child.items, mergeItem)
	child.items = append(child.items, mergeChild.items...)
	child.children = append(child.children, mergeChild.children...)
	n.t.freeNode(mergeChild)
}

// BTree is an implementation of a B-Tree.
type BTree struct {
	degree   int
	length   int
	root     *node
	freelist *FreeList
}

func (t *BTree) maxItems() int {
	return t.degree*2 - 1
}

func (t *BTree) newNode() (n *node) {
	n = t.freelist.newNode()
	n.t = t
	return
}

func (t *BTree) freeNode(n *node) {
	// clear to allow GC
	n.items.truncate(0)
	n.children.truncate(0)
	n.t = nil // clear to allow GC
	t.freelist.freeNode(n)
}

// ReplaceOrInsert adds the given item to the tree.
func (t *BTree) ReplaceOrInsert(item Item) {
	if t.root == nil {
		t.root = t.newNode()
		t.root.items = append(t.root.items, item)
		t.length++
		return
	} else if len(t.root.items) >= t.maxItems() {
		item2, second := t.root.split(t.maxItems() / 2)
		oldroot := t.root
		t.root = t.newNode()
		t.root.items = append(t.root.items, item2)
		t.root.children = append(t.root.children, oldroot, second)
	}
	if len(t.root.children) > 0 {
		i, _ := t.root.items.find(item)
		t.root.maybeSplitChild(i, t.maxItems())
	}
}
