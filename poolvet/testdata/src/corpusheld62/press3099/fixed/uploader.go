// Source: https://github.com/frappe/press/pull/3099
// (commit 4731ef4e4bb6e1722f7528d2d1da931347e520da, "fix(restore-cli): In
// buffer pool, store the pointers to buffer"), libs/fcrestore/uploader.go.
//
// Bug: each MultipartUpload has a sync.Pool of 32KB copy buffers whose New
// returns a []byte. uploadPart runs one goroutine per part (up to
// MAX_CONCURRENCY at a time) that takes a buffer with
// m.bufferPool.Get().([]byte) but returns it with a deferred
// m.bufferPool.Put(&buf), i.e. as a *[]byte. Once a part has finished, the
// pool holds *[]byte values, and the next part's Get().([]byte) type
// assertion panics (or, in the author's words, the pool "can act weirdly
// sometimes and lead to other issues and reallocation").
//
// Fix: store pointers consistently: New returns &buf, Get asserts *[]byte,
// the pointer is put back and *bufPtr is handed to io.CopyBuffer.
//
// GenerateMultipartUploadLink (which first asks the press API for signed
// URLs) is trimmed to NewMultipartUpload, which builds the same struct.
//
// Check: typemismatch (the Get().([]byte) assertion in uploadPart's goroutine
// expects a []byte while the Put in the same goroutine stores *[]byte)
package fixed

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var (
	PART_SIZE       int64 = 1 * 1024 * 1024 * 1024 // 1GB per part
	MAX_CONCURRENCY       = 10                     // Limit concurrent uploads
	HTTP_TIMEOUT          = 30 * time.Minute       // Request timeout
)

type MultipartUpload struct {
	Path         string
	TotalSize    int64
	UploadedSize int64 // atomic access only
	PartSize     int64
	SignedURLs   []string
	Etags        []string

	// Concurrency control
	client     *http.Client
	mu         sync.Mutex
	cancelFn   context.CancelFunc
	ctx        context.Context
	errors     []error
	wg         sync.WaitGroup
	bufferPool sync.Pool
}

type progressTracker struct {
	io.Reader
	size *int64
}

func (pt *progressTracker) Read(p []byte) (int, error) {
	n, err := pt.Reader.Read(p)
	if n > 0 {
		atomic.AddInt64(pt.size, int64(n))
	}
	return n, err
}

type partRange struct {
	start, end int64
}

func NewMultipartUpload(filePath string, totalSize, partSize int64, signedURLs []string) *MultipartUpload {
	return &MultipartUpload{
		Path:       filePath,
		TotalSize:  totalSize,
		PartSize:   partSize,
		SignedURLs: signedURLs,
		Etags:      make([]string, len(signedURLs)),
		client: &http.Client{
			Timeout: HTTP_TIMEOUT,
		},
		bufferPool: sync.Pool{
			New: func() interface{} {
				buf := make([]byte, 32*1024) // 32KB buffer
				return &buf
			},
		},
	}
}

func (m *MultipartUpload) UploadParts() error {
	m.mu.Lock()
	m.ctx, m.cancelFn = context.WithCancel(context.Background())
	m.errors = make([]error, 0)
	m.UploadedSize = 0 // Reset progress
	m.mu.Unlock()

	partRanges := m.calculatePartRanges()
	errorChan := make(chan error, len(partRanges))
	sem := make(chan struct{}, MAX_CONCURRENCY)

	for i, r := range partRanges {
		if r.start == -1 {
			continue
		}

		m.wg.Add(1)
		sem <- struct{}{}

		go func(partNum int, start, end int64) {
			defer func() {
				<-sem
				m.wg.Done()
			}()

			etag, err := m.uploadPart(partNum, start, end)
			if err != nil {
				errorChan <- fmt.Errorf("part %d: %w", partNum, err)
				return
			}

			m.mu.Lock()
			m.Etags[partNum-1] = etag
			m.mu.Unlock()
		}(i+1, r.start, r.end)
	}

	go func() {
		m.wg.Wait()
		close(errorChan)
	}()

	for err := range errorChan {
		m.mu.Lock()
		m.errors = append(m.errors, err)
		m.mu.Unlock()
	}

	if len(m.errors) > 0 {
		return fmt.Errorf("%d parts failed", len(m.errors))
	}
	return nil
}

func (m *MultipartUpload) uploadPart(partNumber int, start, end int64) (string, error) {
	file, err := os.Open(m.Path)
	if err != nil {
		return "", fmt.Errorf("file open error: %w", err)
	}
	defer file.Close()

	if _, err := file.Seek(start, 0); err != nil {
		return "", fmt.Errorf("seek error: %w", err)
	}

	pr, pw := io.Pipe()
	defer pr.Close()

	go func() {
		defer pw.Close()
		bufPtr := m.bufferPool.Get().(*[]byte)
		defer m.bufferPool.Put(bufPtr)

		_, err := io.CopyBuffer(pw, &progressTracker{
			Reader: io.LimitReader(file, end-start+1),
			size:   &m.UploadedSize,
		}, *bufPtr)
		if err != nil {
			pw.CloseWithError(err)
		}
	}()

	req, err := http.NewRequestWithContext(m.ctx, "PUT", m.SignedURLs[partNumber-1], pr)
	if err != nil {
		return "", fmt.Errorf("request creation failed: %w", err)
	}
	req.ContentLength = end - start + 1

	resp, err := m.client.Do(req)
	if err != nil {
		if m.ctx.Err() != nil {
			return "", fmt.Errorf("upload cancelled")
		}
		return "", fmt.Errorf("upload failed: %w", err)
	}
	defer resp.Body.Close()

	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		return "", fmt.Errorf("status %d", resp.StatusCode)
	}

	etag := strings.Trim(resp.Header.Get("ETag"), `"`)
	if etag == "" {
		return "", fmt.Errorf("missing ETag")
	}

	return etag, nil
}

func (m *MultipartUpload) calculatePartRanges() []partRange {
	ranges := make([]partRange, len(m.SignedURLs))
	for i := range ranges {
		start := int64(i) * m.PartSize
		end := start + m.PartSize - 1

		if start >= m.TotalSize {
			ranges[i] = partRange{-1, -1}
			continue
		}

		if end >= m.TotalSize {
			end = m.TotalSize - 1
		}

		ranges[i] = partRange{start, end}
	}
	return ranges
}
