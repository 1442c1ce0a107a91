// Package bug reproduces the shape of lestrrat-go/jwx commit 73e109b6
// (https://github.com/lestrrat-go/jwx/commit/73e109b63dc860f6343f90ee24ce8f7337b4daa5):
// the EC key thumbprint code keeps a sync.Pool of fixed-size coordinate buffers.
// New returns a bare []byte, the getter type-asserts []byte, and the release
// helper (called from deferred statements in Thumbprint) zero-fills the slice and
// puts the slice value back, boxing a new slice header on every release. The fix
// pooled *[]byte instead (New returns &buf, release puts &buf).
// Check: nonpointer (fixed twin: the pool holds *[]byte; no report expected).
package bug

import (
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/big"
	"sync"
)

// maxCrvBuffer bounds what goes back to the pool (not part of the bug).
const maxCrvBuffer = 1024

var crvFixedBufferPool = sync.Pool{
	New: func() interface{} {
		buf := make([]byte, 66)
		return &buf
	},
}

func getCrvFixedBuffer(size int) []byte {
	buf := *(crvFixedBufferPool.Get().(*[]byte))
	if size > 66 && cap(buf) < size {
		buf = append(buf, make([]byte, size-cap(buf))...)
	}
	return buf[:size]
}

func releaseCrvFixedBuffer(buf []byte) {
	if cap(buf) > maxCrvBuffer {
		return
	}
	buf = buf[:cap(buf)]
	buf[0] = 0x0
	for i := 1; i < len(buf); i *= 2 {
		copy(buf[i:], buf[:i])
	}
	crvFixedBufferPool.Put(&buf)
}

func crvPointToFixedBuffer(v *big.Int, crv elliptic.Curve) []byte {
	bits := crv.Params().BitSize
	var inBytes int
	switch bits {
	case 224, 256, 384:
		inBytes = bits / 8
	case 521:
		inBytes = 66
	default:
		inBytes = bits / 8
		if (bits % 8) != 0 {
			inBytes++
		}
	}
	buf := getCrvFixedBuffer(inBytes)
	return v.FillBytes(buf)
}

// PublicKey is a minimal EC public key.
type PublicKey struct {
	Curve elliptic.Curve
	X, Y  *big.Int
}

// Thumbprint computes an RFC 7638 style thumbprint of k.
func (k PublicKey) Thumbprint() []byte {
	xbuf := crvPointToFixedBuffer(k.X, k.Curve)
	ybuf := crvPointToFixedBuffer(k.Y, k.Curve)
	defer releaseCrvFixedBuffer(xbuf)
	defer releaseCrvFixedBuffer(ybuf)

	h := sha256.New()
	fmt.Fprintf(h, `{"crv":"%s","kty":"EC","x":"%s","y":"%s"}`,
		k.Curve.Params().Name,
		base64.RawURLEncoding.EncodeToString(xbuf),
		base64.RawURLEncoding.EncodeToString(ybuf))
	return h.Sum(nil)
}
