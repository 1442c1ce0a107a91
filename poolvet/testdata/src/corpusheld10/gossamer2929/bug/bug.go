// Package bug reproduces the shape of ChainSafe/gossamer#2929
// (https://github.com/ChainSafe/gossamer/pull/2929): trie nodes were
// encoded into *bytes.Buffer values taken from a package-wide sync.Pool.
// Encodings range from a few bytes to megabytes, every buffer went back
// with whatever capacity the largest encoding gave it, and heap profiles
// blamed the encoding path for about a third of the memory. The fix drops
// the pool and lets each encoding use a GC-managed buffer.
//
// Check: unbounded (a *bytes.Buffer grown by a variable-size encoding is
// put back by a deferred Put with no cap on its size; the Len() < 32 test
// only decides whether to hash).
package bug

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"sync"
)

var EncodingBuffers = &sync.Pool{
	New: func() any {
		const initialBufferCapacity = 1 << 16
		return bytes.NewBuffer(make([]byte, 0, initialBufferCapacity))
	},
}

type Node struct {
	Key      []byte
	Value    []byte
	Children []*Node
}

// Encode writes the header, key, value and, for each child, its hash or
// (when short) its inline encoding.
func (n *Node) Encode(w io.Writer) error {
	var hdr [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(hdr[:], uint64(len(n.Key)))
	if _, err := w.Write(hdr[:k]); err != nil {
		return err
	}
	if _, err := w.Write(n.Key); err != nil {
		return err
	}
	k = binary.PutUvarint(hdr[:], uint64(len(n.Value)))
	if _, err := w.Write(hdr[:k]); err != nil {
		return err
	}
	if _, err := w.Write(n.Value); err != nil {
		return err
	}
	for i, child := range n.Children {
		if child == nil {
			continue
		}
		_, merkle, err := child.EncodeAndHash()
		if err != nil {
			return fmt.Errorf("child %d: %w", i, err)
		}
		if _, err := w.Write(merkle); err != nil {
			return err
		}
	}
	return nil
}

// EncodeAndHash returns the node's encoding and its Merkle value: the
// encoding itself when shorter than 32 bytes, its hash otherwise.
func (n *Node) EncodeAndHash() (encoding, merkle []byte, err error) {
	buffer := EncodingBuffers.Get().(*bytes.Buffer)
	buffer.Reset()
	defer EncodingBuffers.Put(buffer) // want `unbounded`

	if err := n.Encode(buffer); err != nil {
		return nil, nil, fmt.Errorf("encoding node: %w", err)
	}

	encoding = make([]byte, buffer.Len())
	copy(encoding, buffer.Bytes())
	if buffer.Len() < 32 {
		return encoding, encoding, nil
	}
	sum := sha256.Sum256(encoding)
	return encoding, sum[:], nil
}
