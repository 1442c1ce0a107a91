// Source: https://github.com/jkroepke/openvpn-auth-oauth2/pull/1072
// (commit a3cc3a47a0a48467a50155f42e0b2f945f3aac17, "fix: clear pooled crypto
// scratch"), internal/crypto/crypto.go.
//
// Bug: Cipher keeps a cipher-local sync.Pool of *pooledMAC, which bundles the
// HMAC-SHA256 state with a fixed-size scratch array (encrypted) used for
// base64-decoding and in-place Salsa20 decryption of timestamped OAuth state
// tokens. putMAC reset only the HMAC (macHash.Reset()) before putting the
// object back, so the decrypted OAuth state plaintext (session IDs, common
// names, client IPs) stayed in the pooled scratch array until the object was
// reused or evicted.
// Fix: putMAC clears macHash.encrypted before Put.
//
// golang.org/x/crypto/salsa20 is replaced by a stdlib AES-CTR stand-in with
// the same XORKeyStream shape; crypto/hkdf key derivation is trimmed.
//
// Check: noreset (at the Put in putMAC: the pooled object goes back with its
// encrypted scratch still holding the last caller's decrypted plaintext)
package fixed

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"io"
	"strconv"
	"sync"
	"time"
)

const (
	salsa20NonceSize = 8
	hmacTagSize      = 16

	timedPlainTextScratchSize = 128
	timedEncryptedScratchSize = timedPlainTextScratchSize + salsa20NonceSize + hmacTagSize
)

var ErrInvalid = errors.New("invalid")

var ErrHMACVerificationFailed = errors.New("hmac verification failed")

var ErrCipherTextBlockSize = errors.New("ciphertext block size is too short")

// Cipher provides encryption and decryption operations using Salsa20 + HMAC-SHA256.
type Cipher struct {
	macPool sync.Pool
	encKey  *[32]byte
	macKey  []byte
	maxAge  time.Duration
}

// pooledMAC keeps reusable HMAC state and timed-encryption/decryption scratch together.
type pooledMAC struct {
	hash.Hash

	sum       [sha256.Size]byte
	encrypted [timedEncryptedScratchSize]byte
}

func NewWithMaxAge(encKey *[32]byte, macKey []byte, maxAge time.Duration) *Cipher {
	c := &Cipher{encKey: encKey, macKey: macKey, maxAge: maxAge}
	c.macPool.New = func() any {
		return &pooledMAC{
			Hash: hmac.New(sha256.New, c.macKey),
		}
	}
	return c
}

// DecryptStringWithTimeInto decodes, authenticates, decrypts, and validates
// raw URL-base64 input into dst. On success, it returns the plaintext length.
func (c *Cipher) DecryptStringWithTimeInto(dst []byte, encryptedBase64 string) (int, error) {
	if len(encryptedBase64) > 4096 {
		return 0, fmt.Errorf("%w: token too large", ErrInvalid)
	}

	decodedLen := base64.RawURLEncoding.DecodedLen(len(encryptedBase64))
	if len(dst) < decodedLen {
		return decodedLen, io.ErrShortBuffer
	}

	macHash := c.getMAC()
	defer c.putMAC(macHash)

	var encrypted []byte
	if decodedLen > cap(macHash.encrypted) {
		encrypted = make([]byte, decodedLen)
	} else {
		encrypted = macHash.encrypted[:decodedLen]
	}

	decodedLen, err := base64.RawURLEncoding.Decode(encrypted, []byte(encryptedBase64))
	if err != nil {
		return 0, fmt.Errorf("base64 decode %q: %w", encryptedBase64, err)
	}

	plainText, err := c.decryptTimedPayloadWithMAC(encrypted[:decodedLen], macHash)
	if err != nil {
		return 0, err
	}

	return copy(dst, plainText), nil
}

func (c *Cipher) decryptTimedPayloadWithMAC(encrypted []byte, macHash *pooledMAC) ([]byte, error) {
	if len(encrypted) < salsa20NonceSize+hmacTagSize {
		return nil, ErrCipherTextBlockSize
	}

	// In-place decryption: the plaintext is written over the ciphertext in
	// the pooled scratch.
	data, err := c.decryptBytesWithMACInto(encrypted[salsa20NonceSize:salsa20NonceSize], encrypted, macHash)
	if err != nil {
		return nil, err
	}

	issued, data, err := extractIssued(data)
	if err != nil {
		return nil, err
	}

	if err := c.validateIssued(issued); err != nil {
		return nil, err
	}

	return data, nil
}

func (c *Cipher) decryptBytesWithMACInto(dst, encryptedData []byte, macHash *pooledMAC) ([]byte, error) {
	nonce := encryptedData[:salsa20NonceSize]
	cipherText := encryptedData[salsa20NonceSize : len(encryptedData)-hmacTagSize]
	tag := encryptedData[len(encryptedData)-hmacTagSize:]

	macHash.Write(nonce)
	macHash.Write(cipherText)

	expectedTag := macHash.Sum(macHash.sum[:0])
	if !hmac.Equal(tag, expectedTag[:hmacTagSize]) {
		return nil, ErrHMACVerificationFailed
	}

	var plainText []byte
	if dst == nil || cap(dst) < len(cipherText) {
		plainText = make([]byte, len(cipherText))
	} else {
		plainText = dst[:len(cipherText):len(cipherText)]
	}

	xorKeyStream(plainText, cipherText, nonce, c.encKey)

	return plainText, nil
}

// getMAC returns a reset HMAC-SHA256 instance from the cipher-local pool.
func (c *Cipher) getMAC() *pooledMAC {
	macHash, ok := c.macPool.Get().(*pooledMAC)
	if !ok {
		return &pooledMAC{
			Hash: hmac.New(sha256.New, c.macKey),
		}
	}

	return macHash
}

// putMAC resets and returns an HMAC-SHA256 instance to the cipher-local pool.
func (c *Cipher) putMAC(macHash *pooledMAC) {
	macHash.Reset()
	// In-place decryption may leave OAuth state plaintext in the pooled scratch.
	clear(macHash.encrypted[:])
	c.macPool.Put(macHash)
}

func extractIssued(data []byte) (int64, []byte, error) {
	before, after, ok := bytes.Cut(data, []byte{' '})
	if !ok {
		return 0, nil, errors.New("invalid data format: no timestamp found")
	}

	issued, err := strconv.ParseInt(string(before), 10, 64)
	if err != nil {
		return 0, nil, fmt.Errorf("parse issued timestamp: %w", err)
	}

	return issued, after, nil
}

func (c *Cipher) validateIssued(issued int64) error {
	issuedSince := time.Since(time.Unix(issued, 0))
	if issuedSince >= c.maxAge {
		return fmt.Errorf("%w: expired after %s", ErrInvalid, c.maxAge)
	}
	if issuedSince <= time.Second*-5 {
		return fmt.Errorf("%w: issued in future", ErrInvalid)
	}
	return nil
}

// xorKeyStream stands in for salsa20.XORKeyStream(out, in, nonce, key).
func xorKeyStream(out, in, nonce []byte, key *[32]byte) {
	block, err := aes.NewCipher(key[:])
	if err != nil {
		panic(err)
	}
	var iv [aes.BlockSize]byte
	copy(iv[:], nonce)
	cipher.NewCTR(block, iv[:]).XORKeyStream(out, in)
}
