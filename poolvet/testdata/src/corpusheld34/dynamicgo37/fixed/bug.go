// Package bug reproduces the shape of cloudwego/dynamicgo#37
// (https://github.com/cloudwego/dynamicgo/pull/37, fix commit
// https://github.com/cloudwego/dynamicgo/commit/534975ff9b633fc0990fc6ee7cd689510593fec1
// "fix: VisitorUserPool Reset"): the JSON-to-protobuf converter keeps its
// VisitorUserNode in a sync.Pool. The node remembers the descriptor of the
// field whose key was just parsed in globalFieldDesc. onValueEnd returns early
// on the root level without clearing it, and Reset (called by
// FreeVisitorUserNodePool before the Put) cleared the stack, the stack
// pointer and the output buffer but forgot globalFieldDesc. The next
// conversion that took the node from the pool then started with the field
// descriptor of some earlier message and wrote values under the wrong tag.
// The fix clears globalFieldDesc in Reset.
//
// Check: noreset (Reset forgets globalFieldDesc, so the node goes back to
// the pool still pointing at the previous message's field).
package bug

import (
	"errors"
	"sync"
)

const defaultStkDepth = 64

const (
	nilStkType uint8 = 0
	objStkType uint8 = 1
)

// FieldDescriptor describes one protobuf field.
type FieldDescriptor struct {
	Name   string
	Number int
}

// MessageDescriptor describes a protobuf message.
type MessageDescriptor struct {
	Fields map[string]*FieldDescriptor
}

// BinaryProtocol is the output buffer of the converter.
type BinaryProtocol struct {
	Buf []byte
}

// Reset keeps the storage but drops the content.
func (p *BinaryProtocol) Reset() { p.Buf = p.Buf[:0] }

func (p *BinaryProtocol) appendTag(desc *FieldDescriptor) {
	p.Buf = append(p.Buf, byte(desc.Number<<3))
}

type visitorUserNodeState struct {
	msgDesc   *MessageDescriptor
	fieldDesc *FieldDescriptor
	lenPos    int
}

// VisitorUserNodeStack is one level of nesting.
type VisitorUserNodeStack struct {
	typ   uint8
	state visitorUserNodeState
}

// Reset clears one stack level.
func (stk *VisitorUserNodeStack) Reset() {
	stk.typ = nilStkType
	stk.state.lenPos = -1
	stk.state.msgDesc = nil
	stk.state.fieldDesc = nil
}

// VisitorUserNode holds the state of one JSON-to-protobuf conversion.
type VisitorUserNode struct {
	stk             []VisitorUserNodeStack
	sp              uint8
	p               *BinaryProtocol
	globalFieldDesc *FieldDescriptor
}

var vuPool = sync.Pool{
	New: func() interface{} {
		return &VisitorUserNode{
			p:   &BinaryProtocol{Buf: make([]byte, 0, 256)},
			stk: make([]VisitorUserNodeStack, defaultStkDepth),
		}
	},
}

// NewVisitorUserNodeBuffer takes a node (and its buffer) from the pool.
func NewVisitorUserNodeBuffer() *VisitorUserNode {
	return vuPool.Get().(*VisitorUserNode)
}

// FreeVisitorUserNodePool resets the node and puts it back.
func FreeVisitorUserNodePool(vu *VisitorUserNode) {
	vu.Reset()
	if cap(vu.p.Buf) > 64<<10 {
		return
	}
	vuPool.Put(vu)
}

// Reset resets the stack and the output buffer.
func (self *VisitorUserNode) Reset() {
	self.sp = 0
	self.p.Reset()
	for i := 0; i < len(self.stk); i++ {
		self.stk[i].Reset()
	}
	self.globalFieldDesc = nil
}

// Pair is one key/value of a flat JSON object, as the parser reports it.
type Pair struct {
	Key   string
	Value bool
}

// Decode walks the object and writes protobuf bytes.
func (self *VisitorUserNode) Decode(pairs []Pair, desc *MessageDescriptor) ([]byte, error) {
	self.stk[self.sp].state = visitorUserNodeState{msgDesc: desc, lenPos: -1}
	for _, kv := range pairs {
		if err := self.OnObjectKey(kv.Key); err != nil {
			return nil, err
		}
		if err := self.OnBool(kv.Value); err != nil {
			return nil, err
		}
	}
	if err := self.onValueEnd(); err != nil {
		return nil, err
	}
	if self.sp != 0 {
		return nil, errors.New("incorrect sp")
	}
	return self.p.Buf, nil
}

// OnObjectKey remembers the descriptor of the field being parsed.
func (self *VisitorUserNode) OnObjectKey(key string) error {
	top := &self.stk[self.sp]
	var cur *FieldDescriptor
	if top.state.msgDesc != nil {
		cur = top.state.msgDesc.Fields[key]
	} else if top.typ == objStkType && top.state.fieldDesc != nil {
		cur = top.state.fieldDesc
	}
	if cur == nil {
		return errors.New("unknown field " + key)
	}
	self.globalFieldDesc = cur
	return nil
}

// OnBool writes a bool under the remembered field.
func (self *VisitorUserNode) OnBool(v bool) error {
	if self.globalFieldDesc == nil {
		return errors.New("globalFieldDesc is nil")
	}
	self.p.appendTag(self.globalFieldDesc)
	if v {
		self.p.Buf = append(self.p.Buf, 1)
	} else {
		self.p.Buf = append(self.p.Buf, 0)
	}
	return self.onValueEnd()
}

func (self *VisitorUserNode) onValueEnd() error {
	if self.sp == 0 && self.globalFieldDesc == nil {
		return nil
	}
	if self.globalFieldDesc != nil {
		self.globalFieldDesc = nil
		return nil
	}
	self.stk[self.sp].Reset()
	self.sp--
	return nil
}

// BinaryConv converts JSON to protobuf.
type BinaryConv struct{}

// Unmarshal converts src into out.
func (self *BinaryConv) Unmarshal(src []Pair, out *[]byte, desc *MessageDescriptor) error {
	vu := NewVisitorUserNodeBuffer()
	data, err := vu.Decode(src, desc)
	if err == nil {
		*out = append((*out)[:0], data...)
	}
	FreeVisitorUserNodePool(vu)
	return err
}
