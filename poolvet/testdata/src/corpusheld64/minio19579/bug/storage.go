package bug

import (
	"bytes"
	"context"
	"errors"
	"time"
)

var errDiskNotFound = errors.New("disk not found")

// FileInfo describes an object version; Data holds inline data.
type FileInfo struct {
	Volume string
	Name   string
	Size   int64
	Data   []byte
}

// StorageAPI is a trimmed storage interface.
type StorageAPI interface {
	RenameData(ctx context.Context, srcVolume, srcPath string, fi FileInfo, dstVolume, dstPath string) (uint64, error)
}

type xlStorage struct {
	written [][]byte
}

func (s *xlStorage) RenameData(ctx context.Context, srcVolume, srcPath string, fi FileInfo, dstVolume, dstPath string) (uint64, error) {
	meta := make([]byte, 0, len(fi.Data)+16)
	meta = append(meta, fi.Name...)
	meta = append(meta, fi.Data...)
	s.written = append(s.written, meta)
	return uint64(len(meta)), nil
}

type xlStorageDiskIDCheck struct {
	storage    *xlStorage
	maxTimeout time.Duration
}

func (p *xlStorageDiskIDCheck) RenameData(ctx context.Context, srcVolume, srcPath string, fi FileInfo, dstVolume, dstPath string) (sign uint64, err error) {
	return WithDeadline[uint64](ctx, p.maxTimeout, func(ctx context.Context) (result uint64, err error) { // want `useafterput`
		return p.storage.RenameData(ctx, srcVolume, srcPath, fi, dstVolume, dstPath)
	})
}

type erasureObjects struct {
	disks []StorageAPI
}

func renameData(ctx context.Context, disks []StorageAPI, srcBucket, srcEntry string, metadata []FileInfo, dstBucket, dstEntry string) error {
	for index := range disks {
		if disks[index] == nil {
			return errDiskNotFound
		}
		// Pick one FileInfo for a disk at index.
		fi := metadata[index]
		if _, err := disks[index].RenameData(ctx, srcBucket, srcEntry, fi, dstBucket, dstEntry); err != nil {
			return err
		}
	}
	return nil
}

func (er erasureObjects) putObject(ctx context.Context, bucket, object string, data []byte, shardFileSize int) error {
	onlineDisks := er.disks
	partsMetadata := make([]FileInfo, len(onlineDisks))
	inlineBuffers := make([]*bytes.Buffer, len(onlineDisks))
	for i := range onlineDisks {
		buf := GetByteBufferCap(shardFileSize + 64)
		inlineBuffers[i] = bytes.NewBuffer(buf[:0])
		defer PutByteBuffer(buf)
	}

	for i := range onlineDisks {
		inlineBuffers[i].Write(data)
		partsMetadata[i].Data = inlineBuffers[i].Bytes()
		partsMetadata[i].Volume = bucket
		partsMetadata[i].Name = object
		partsMetadata[i].Size = int64(len(data))
	}

	return renameData(ctx, onlineDisks, ".minio.sys/tmp", "uuid", partsMetadata, bucket, object)
}
