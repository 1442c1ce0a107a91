// Source: https://github.com/minio/minio-go/pull/1753
// (commit 438fd0f99b851d0d4fd2628fa17f7e9491bd5dde, "Fix accidental sharing of
// MD5 hasher")
//
// Bug: putObjectMultipartStreamParallel took one MD5 hasher from the
// package md5Pool (c.md5Hasher() -> newMd5Hasher -> md5Pool.Get) with a
// deferred md5Hash.Close(), whose Close resets the hash and puts it back into
// md5Pool. The single pooled hasher was then captured by every upload
// goroutine started in the loop, which Reset/Write/Sum it concurrently
// (the race in MD5 hashing of parallel streaming uploads), and on the early
// return paths that do not wait for the goroutines the deferred Close hands
// the hasher back to the pool while the goroutines still use it.
// Fix: each goroutine takes its own hasher from the pool and Closes it after
// computing the part's MD5; the shared hasher and its deferred Close are gone.
//
// Check: useafterput (the go statement hands the pooled md5Hash to a
// goroutine that can outlive the function whose deferred Close puts it back)
package bug

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"errors"
	"hash"
	"io"
	"sync"
)

var md5Pool = sync.Pool{New: func() interface{} { return md5.New() }}

// Hasher is the md5simd.Hasher interface.
type Hasher interface {
	hash.Hash
	Close()
}

func newMd5Hasher() Hasher {
	return &hashWrapper{Hash: md5Pool.Get().(hash.Hash), isMD5: true}
}

// hashWrapper implements the md5simd.Hasher interface.
type hashWrapper struct {
	hash.Hash
	isMD5 bool
}

// Close will put the hasher back into the pool.
func (m *hashWrapper) Close() {
	if m.isMD5 && m.Hash != nil {
		m.Reset()
		md5Pool.Put(m.Hash)
	}
	m.Hash = nil
}

// Client is the minio client.
type Client struct {
	md5Hasher func() Hasher
}

// New returns a Client using the pooled MD5 hasher.
func New() *Client {
	return &Client{md5Hasher: newMd5Hasher}
}

type uploadPartParams struct {
	reader     io.Reader
	partNumber int
	md5Base64  string
	size       int64
}

// ObjectPart is an uploaded part.
type ObjectPart struct {
	PartNumber int
	ETag       string
}

func (c *Client) uploadPart(ctx context.Context, p uploadPartParams) (ObjectPart, error) {
	if _, err := io.Copy(io.Discard, p.reader); err != nil {
		return ObjectPart{}, err
	}
	return ObjectPart{PartNumber: p.partNumber, ETag: p.md5Base64}, ctx.Err()
}

func (c *Client) putObjectMultipartStreamParallel(ctx context.Context, reader io.Reader, totalPartsCount int, partSize int64, numThreads int, sendContentMd5 bool) (map[int]ObjectPart, error) {
	// Cancel all when an error occurs.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	md5Hash := c.md5Hasher()
	defer md5Hash.Close()

	// Initialize parts uploaded map.
	partsInfo := make(map[int]ObjectPart)

	// Create a buffer.
	nBuffers := int64(numThreads)
	bufs := make(chan []byte, nBuffers)
	all := make([]byte, nBuffers*partSize)
	for i := int64(0); i < nBuffers; i++ {
		bufs <- all[i*partSize : i*partSize+partSize]
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	errCh := make(chan error, numThreads)

	var err error
	for partNumber := 1; partNumber <= totalPartsCount; partNumber++ {
		// Proceed to upload the part.
		var buf []byte
		select {
		case buf = <-bufs:
		case err = <-errCh:
			cancel()
			wg.Wait()
			return nil, err
		}

		if int64(len(buf)) != partSize {
			return nil, errors.New("read buffer < than expected partSize")
		}

		length, rerr := io.ReadFull(reader, buf)
		if rerr == io.EOF && partNumber > 1 {
			// Done
			break
		}
		if rerr != nil && rerr != io.ErrUnexpectedEOF && rerr != io.EOF {
			cancel()
			wg.Wait()
			return nil, rerr
		}

		wg.Add(1)
		go func(partNumber int) { // want `useafterput`
			// Avoid declaring variables in the for loop
			var md5Base64 string

			if sendContentMd5 {
				md5Hash.Reset()
				md5Hash.Write(buf[:length])
				md5Base64 = base64.StdEncoding.EncodeToString(md5Hash.Sum(nil))
			}

			defer wg.Done()
			p := uploadPartParams{
				reader:     bytes.NewReader(buf[:length]),
				partNumber: partNumber,
				md5Base64:  md5Base64,
				size:       int64(length),
			}
			objPart, uerr := c.uploadPart(ctx, p)
			if uerr != nil {
				errCh <- uerr
			}

			// Save successfully uploaded part metadata.
			mu.Lock()
			partsInfo[partNumber] = objPart
			mu.Unlock()

			// Send buffer back so it can be reused.
			bufs <- buf
		}(partNumber)
	}
	wg.Wait()

	// Collect any error
	select {
	case err = <-errCh:
		return nil, err
	default:
	}
	return partsInfo, nil
}
