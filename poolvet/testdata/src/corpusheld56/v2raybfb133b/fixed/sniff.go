// Source: https://github.com/v2fly/v2ray-core/commit/bfb133b67e4d78455b80533684e42349acb8582a
// ("Fix errors caused by legacy data in the Buffer", common/protocol/quic/sniff.go).
//
// Bug: SniffQUIC takes a scratch buf.Buffer from the buffer pool
// (cache := buf.New(), defer cache.Release()) and, for every initial packet,
// calls cache.Clear() and cache.Extend() to carve the header-protection mask
// and the AEAD nonce out of it. Clear only resets start/end and Release puts
// the byte slice back into the pool as is, so the bytes handed out by Extend
// still hold whatever the previous user of the pooled slice (or the previous
// packet) wrote there. Only the last packetNumberLength bytes of the nonce
// were overwritten with the packet number; the leading bytes, which must be
// zero before they are XORed with the IV, kept that legacy data, so
// decryption of the Initial packet failed at random.
//
// Fix: the leading bytes of the nonce are wiped (wipeBytes) before the packet
// number is read into its tail (and the mask is computed over len(mask)
// bytes).
//
// Check: noreset (the pooled scratch buffer goes back to the pool through the
// deferred cache.Release() with its bytes intact, and the next user reads
// them through Extend)
package fixed

import (
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"io"
	"sync"
)

const Size = 2048

var pool = sync.Pool{
	New: func() interface{} {
		return make([]byte, Size)
	},
}

type ownership uint8

const (
	managed ownership = iota
	unmanaged
)

// Buffer is a recyclable allocation of a byte array (common/buf).
type Buffer struct {
	v         []byte
	start     int32
	end       int32
	ownership ownership
}

// New creates a Buffer with 0 length and 2K capacity.
func New() *Buffer {
	return &Buffer{
		v: pool.Get().([]byte),
	}
}

// FromBytes creates a Buffer with an existed bytearray
func FromBytes(data []byte) *Buffer {
	return &Buffer{
		v:         data,
		end:       int32(len(data)),
		ownership: unmanaged,
	}
}

// Release recycles the buffer into an internal buffer pool.
func (b *Buffer) Release() {
	if b == nil || b.v == nil || b.ownership == unmanaged {
		return
	}

	p := b.v
	b.v = nil
	b.Clear()
	pool.Put(p) // nolint: staticcheck
}

// Clear clears the content of the buffer, results an empty buffer with
// Len() = 0.
func (b *Buffer) Clear() {
	b.start = 0
	b.end = 0
}

// Extend increases the buffer size by n bytes, and returns the extended part.
func (b *Buffer) Extend(n int32) []byte {
	end := b.end + n
	if end > int32(len(b.v)) {
		panic("extending out of bound")
	}
	ext := b.v[b.end:end]
	b.end = end
	return ext
}

// Read implements io.Reader.Read().
func (b *Buffer) Read(data []byte) (int, error) {
	if b.end == b.start {
		return 0, io.EOF
	}
	nBytes := copy(data, b.v[b.start:b.end])
	b.start += int32(nBytes)
	return nBytes, nil
}

type xorNonceAEAD struct {
	nonceMask [12]byte
	aead      cipher.AEAD
}

func (f *xorNonceAEAD) NonceSize() int { return 8 }

func (f *xorNonceAEAD) Open(out, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	for i, b := range nonce {
		f.nonceMask[4+i] ^= b
	}
	result, err := f.aead.Open(out, f.nonceMask[:], ciphertext, additionalData)
	for i, b := range nonce {
		f.nonceMask[4+i] ^= b
	}
	return result, err
}

func aeadAESGCMTLS13(key, nonceMask []byte) *xorNonceAEAD {
	aes, err := aes.NewCipher(key)
	if err != nil {
		panic(err)
	}
	aead, err := cipher.NewGCM(aes)
	if err != nil {
		panic(err)
	}
	ret := &xorNonceAEAD{aead: aead}
	copy(ret.nonceMask[:], nonceMask)
	return ret
}

type initialPacket struct {
	hdrLen    int
	packetLen int
	hpKey     []byte
	key       []byte
	iv        []byte
}

// SniffQUIC decrypts the Initial packets of b (trimmed to the crypto part).
func SniffQUIC(b []byte, packets []initialPacket) ([][]byte, error) {
	if len(b) == 0 {
		return nil, errors.New("no clue")
	}

	cache := New()
	defer cache.Release()

	var out [][]byte
	for _, p := range packets {
		hdrLen := p.hdrLen
		buffer := FromBytes(b[hdrLen:])
		block, err := aes.NewCipher(p.hpKey)
		if err != nil {
			return nil, err
		}

		cache.Clear()
		mask := cache.Extend(int32(block.BlockSize()))
		block.Encrypt(mask, b[hdrLen+4:hdrLen+4+len(mask)])
		b[0] ^= mask[0] & 0xf
		packetNumberLength := int(b[0]&0x3 + 1)
		for i := range packetNumberLength {
			b[hdrLen+i] ^= mask[i+1]
		}

		cipher := aeadAESGCMTLS13(p.key, p.iv)

		nonce := cache.Extend(int32(cipher.NonceSize()))
		wipeBytes(nonce[:len(nonce)-packetNumberLength])
		_, err = buffer.Read(nonce[len(nonce)-packetNumberLength:])
		if err != nil {
			return nil, err
		}

		extHdrLen := hdrLen + packetNumberLength
		data := b[extHdrLen : p.packetLen+hdrLen]
		decrypted, err := cipher.Open(b[extHdrLen:extHdrLen], nonce, data, b[:extHdrLen])
		if err != nil {
			return nil, err
		}
		out = append(out, decrypted)
		b = b[hdrLen+p.packetLen:]
	}
	return out, nil
}

func wipeBytes(b []byte) {
	for i := range len(b) {
		b[i] = 0x0
	}
}
