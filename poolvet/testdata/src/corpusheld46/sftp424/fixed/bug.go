// Package bug reproduces the shape of pkg/sftp#424 (https://github.com/pkg/sftp/issues/424):
// "Incomplete downloads". The reporter found that their download helper handed the SFTP
// client connection back to their connection pool before the remote file opened on it was
// closed; the file was closed later (deferred) while the pooled connection had already been
// taken by another goroutine and used to open the next file, so the late Close acted on a
// connection that belonged to someone else and the second download came out truncated. Their
// fix was to close the file before returning the connection to the pool.
// Fixed twin: the file is closed before the client goes back to the pool.
package bug

import (
	"errors"
	"io"
	"sync"
)

// Client is one SFTP session over an SSH connection.
type Client struct {
	mu      sync.Mutex
	remote  map[string][]byte
	handles map[uint32]*openFile
	next    uint32
}

type openFile struct {
	data []byte
	off  int
}

// File is a remote file opened through a Client.
type File struct {
	c      *Client
	handle uint32
}

func (c *Client) Open(path string) (*File, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	data, ok := c.remote[path]
	if !ok {
		return nil, errors.New("sftp: no such file")
	}
	if c.handles == nil {
		c.handles = make(map[uint32]*openFile)
	}
	c.next++
	c.handles[c.next] = &openFile{data: data}
	return &File{c: c, handle: c.next}, nil
}

func (f *File) Read(p []byte) (int, error) {
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	of, ok := f.c.handles[f.handle]
	if !ok {
		return 0, errors.New("sftp: invalid handle")
	}
	if of.off >= len(of.data) {
		return 0, io.EOF
	}
	n := copy(p, of.data[of.off:])
	of.off += n
	return n, nil
}

// Close sends SSH_FXP_CLOSE for the handle over the file's client connection.
func (f *File) Close() error {
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	if _, ok := f.c.handles[f.handle]; !ok {
		return errors.New("sftp: invalid handle")
	}
	delete(f.c.handles, f.handle)
	return nil
}

// ClientPool keeps connected clients for reuse between downloads.
type ClientPool struct {
	pool sync.Pool
}

func NewClientPool(remote map[string][]byte) *ClientPool {
	p := &ClientPool{}
	p.pool.New = func() any { return &Client{remote: remote} }
	return p
}

func (p *ClientPool) Get() *Client { return p.pool.Get().(*Client) }

func (p *ClientPool) Put(c *Client) { p.pool.Put(c) }

// Store downloads files through pooled connections.
type Store struct {
	pool *ClientPool
}

func (s *Store) Download(path string) ([]byte, error) {
	client := s.pool.Get()

	f, err := client.Open(path)
	if err != nil {
		s.pool.Put(client)
		return nil, err
	}
	data, err := io.ReadAll(f)
	cerr := f.Close()
	s.pool.Put(client)
	if err != nil {
		return nil, err
	}
	if cerr != nil {
		return nil, cerr
	}
	return data, nil
}
