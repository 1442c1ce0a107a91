// Package fixed is ChainSafe/gossamer#2929 after the fix: no pool, each
// encoding uses its own buffer, sized by what it writes and left to the GC.
package fixed

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
)

type Node struct {
	Key      []byte
	Value    []byte
	Children []*Node
}

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

func (n *Node) EncodeAndHash() (encoding, merkle []byte, err error) {
	buffer := bytes.NewBuffer(nil)

	if err := n.Encode(buffer); err != nil {
		return nil, nil, fmt.Errorf("encoding node: %w", err)
	}

	encoding = buffer.Bytes()
	if len(encoding) < 32 {
		return encoding, encoding, nil
	}
	sum := sha256.Sum256(encoding)
	return encoding, sum[:], nil
}
