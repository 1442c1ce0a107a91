// Package bug reproduces the shape of moby/buildkit#1582
// (https://github.com/moby/buildkit/pull/1582, commit
// https://github.com/moby/buildkit/commit/0ed9eb77cec16a8ac5195633da1871b0dbd518f4
// "contenthash: fix buffer reuse pool"): the content hasher copies every
// regular file through a 32K scratch buffer kept in a sync.Pool. The pool's New
// returned a []byte and poolsCopy put the slice straight back, so every Put
// boxed the slice header into a new interface value and allocated on each file
// hashed, which defeats the pool (found when the PR enabled more linters).
//
// Check: nonpointer (a []byte value is put into the sync.Pool; report at the
// Put).
package bug

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"os"
	"sync"
)

var pool32K = sync.Pool{
	New: func() interface{} { return make([]byte, 32*1024) }, // 32K
}

func poolsCopy(dst io.Writer, src io.Reader) (written int64, err error) {
	buf := pool32K.Get().([]byte)
	written, err = io.CopyBuffer(dst, src, buf)
	pool32K.Put(buf) // want `nonpointer`
	return
}

// NewFileHash returns a hash seeded with the file's header fields.
func NewFileHash(fp string, fi os.FileInfo) (hash.Hash, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%o\x00%d\x00", fi.Name(), fi.Mode(), fi.Size())
	return h, nil
}

func prepareDigest(fp, p string, fi os.FileInfo) (string, error) {
	h, err := NewFileHash(fp, fi)
	if err != nil {
		return "", fmt.Errorf("failed to create hash for %s: %w", p, err)
	}
	if fi.Mode().IsRegular() && fi.Size() > 0 {
		f, err := os.Open(fp)
		if err != nil {
			return "", fmt.Errorf("failed to open %s: %w", p, err)
		}
		defer f.Close()
		if _, err := poolsCopy(h, f); err != nil {
			return "", fmt.Errorf("failed to copy file data for %s: %w", p, err)
		}
	}
	return fmt.Sprintf("sha256:%x", h.Sum(nil)), nil
}
