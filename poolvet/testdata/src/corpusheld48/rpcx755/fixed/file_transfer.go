package fixed

import (
	"context"
	"crypto/rand"
	"sync"
)

// share.FileTransferArgs and friends.

type FileTransferArgs struct {
	FileName string            `json:"file_name,omitempty"`
	FileSize int64             `json:"file_size,omitempty"`
	Meta     map[string]string `json:"meta,omitempty"`
}

// Clone clones this DownloadFileArgs.
func (args FileTransferArgs) Clone() *FileTransferArgs {
	meta := make(map[string]string)
	for k, v := range args.Meta {
		meta[k] = v
	}

	return &FileTransferArgs{
		FileName: args.FileName,
		FileSize: args.FileSize,
		Meta:     meta,
	}
}

type FileTransferReply struct {
	Token []byte `json:"token,omitempty"`
	Addr  string `json:"addr,omitempty"`
}

type DownloadFileArgs struct {
	FileName string            `json:"file_name,omitempty"`
	Meta     map[string]string `json:"meta,omitempty"`
}

// Clone clones this DownloadFileArgs.
func (args DownloadFileArgs) Clone() *DownloadFileArgs {
	meta := make(map[string]string)
	for k, v := range args.Meta {
		meta[k] = v
	}

	return &DownloadFileArgs{
		FileName: args.FileName,
		Meta:     meta,
	}
}

// tokenCache stands in for the hashicorp/golang-lru cache.
type tokenCache struct {
	mu    sync.Mutex
	items map[string]interface{}
}

func (c *tokenCache) Add(key string, value interface{}) {
	c.mu.Lock()
	c.items[key] = value
	c.mu.Unlock()
}

func (c *tokenCache) Get(key string) (interface{}, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[key]
	return v, ok
}

type tokenInfo struct {
	token []byte
	args  *FileTransferArgs
}

type downloadTokenInfo struct {
	token []byte
	args  *DownloadFileArgs
}

type FileTransfer struct {
	Addr          string
	AdvertiseAddr string
	cachedTokens  *tokenCache
}

type FileTransferService struct {
	FileTransfer *FileTransfer
}

func (s *FileTransferService) TransferFile(ctx context.Context, args *FileTransferArgs, reply *FileTransferReply) error {
	token := make([]byte, 32)
	_, err := rand.Read(token)
	if err != nil {
		return err
	}

	*reply = FileTransferReply{
		Token: token,
		Addr:  s.FileTransfer.Addr,
	}
	if s.FileTransfer.AdvertiseAddr != "" {
		reply.Addr = s.FileTransfer.AdvertiseAddr
	}

	cloned := args.Clone()
	s.FileTransfer.cachedTokens.Add(string(token), &tokenInfo{token, cloned})

	return nil
}

func (s *FileTransferService) DownloadFile(ctx context.Context, args *DownloadFileArgs, reply *FileTransferReply) error {
	token := make([]byte, 32)
	_, err := rand.Read(token)
	if err != nil {
		return err
	}

	*reply = FileTransferReply{
		Token: token,
		Addr:  s.FileTransfer.Addr,
	}

	if s.FileTransfer.AdvertiseAddr != "" {
		reply.Addr = s.FileTransfer.AdvertiseAddr
	}

	cloned := args.Clone()
	s.FileTransfer.cachedTokens.Add(string(token), &downloadTokenInfo{token, cloned})

	return nil
}
