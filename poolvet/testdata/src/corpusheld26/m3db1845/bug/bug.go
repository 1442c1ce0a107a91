// Package bug reproduces the shape of m3db/m3#1845 (https://github.com/m3db/m3/pull/1845, see commit
// https://github.com/m3db/m3/commit/924a4bc9306e3bdfa6db1dc01138639a1f313717 "Don't use reader after
// putting back in pool"): FetchBlocksMetadataV2 handed the fileset reader back to the namespace reader
// manager (a cache that recycles readers through a pool) and only afterwards, when the page limit was
// hit, asked that same reader for MetadataRead() and Status().Volume to build the page token. Once put
// back, the reader may already be handed to another request or reset. The fix reads both values
// before calling put.
// Check: useafterput (reader used after namespaceReaderMgr.put returned it to the pool; report at
// the first use after the put).
package bug

import (
	"errors"
	"io"
	"sync"
	"time"
)

type readerStatus struct {
	Open       bool
	Shard      uint32
	Volume     int
	BlockStart time.Time
}

type readerPosition struct {
	volume      int
	metadataIdx int
}

// dataFileSetReader stands in for fs.DataFileSetReader.
type dataFileSetReader struct {
	status      readerStatus
	entries     []string
	metadataIdx int
}

func (r *dataFileSetReader) Status() readerStatus { return r.status }
func (r *dataFileSetReader) MetadataRead() int    { return r.metadataIdx }

func (r *dataFileSetReader) ReadMetadata() (string, int64, error) {
	if r.metadataIdx >= len(r.entries) {
		return "", 0, io.EOF
	}
	id := r.entries[r.metadataIdx]
	r.metadataIdx++
	return id, int64(len(id)), nil
}

func (r *dataFileSetReader) Close() error {
	r.status = readerStatus{}
	r.entries = nil
	r.metadataIdx = 0
	return nil
}

type cachedOpenReaderKey struct {
	shard      uint32
	blockStart int64
	position   readerPosition
}

// namespaceReaderManager caches open readers by position and recycles closed
// ones through a pool.
type namespaceReaderManager struct {
	sync.Mutex
	openReaders   map[cachedOpenReaderKey]*dataFileSetReader
	closedReaders sync.Pool
	files         map[uint32][]string
}

func newNamespaceReaderManager() *namespaceReaderManager {
	m := &namespaceReaderManager{
		openReaders: make(map[cachedOpenReaderKey]*dataFileSetReader),
		files:       make(map[uint32][]string),
	}
	m.closedReaders.New = func() interface{} { return new(dataFileSetReader) }
	return m
}

func (m *namespaceReaderManager) get(shard uint32, blockStart time.Time, pos readerPosition) (*dataFileSetReader, error) {
	m.Lock()
	defer m.Unlock()
	key := cachedOpenReaderKey{shard: shard, blockStart: blockStart.UnixNano(), position: pos}
	if r, ok := m.openReaders[key]; ok {
		delete(m.openReaders, key)
		return r, nil
	}
	r := m.closedReaders.Get().(*dataFileSetReader)
	r.status = readerStatus{Open: true, Shard: shard, Volume: pos.volume, BlockStart: blockStart}
	r.entries = m.files[shard]
	for r.metadataIdx < pos.metadataIdx {
		if _, _, err := r.ReadMetadata(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (m *namespaceReaderManager) put(reader *dataFileSetReader) error {
	status := reader.Status()

	m.Lock()
	defer m.Unlock()

	if !status.Open {
		m.closedReaders.Put(reader)
		return nil
	}

	key := cachedOpenReaderKey{
		shard:      status.Shard,
		blockStart: status.BlockStart.UnixNano(),
		position:   readerPosition{volume: status.Volume, metadataIdx: reader.MetadataRead()},
	}
	if _, ok := m.openReaders[key]; ok {
		if err := reader.Close(); err != nil {
			return err
		}
		m.closedReaders.Put(reader)
		return nil
	}
	m.openReaders[key] = reader
	return nil
}

type PageToken struct {
	CurrBlockStartUnixNanos int64
	CurrBlockEntryIdx       int64
	Volume                  int64
}

type dbShard struct {
	shard              uint32
	namespaceReaderMgr *namespaceReaderManager
}

func (s *dbShard) FetchBlocksMetadataV2(blockStart time.Time, limit int64, pos readerPosition) ([]string, *PageToken, error) {
	var (
		result     []string
		numResults int64
		token      *PageToken
	)

	// Open a reader at this position, potentially from cache
	reader, err := s.namespaceReaderMgr.get(s.shard, blockStart, pos)
	if err != nil {
		return nil, nil, err
	}

	for numResults < limit {
		id, _, err := reader.ReadMetadata()
		if err == io.EOF {
			// Clean end of volume, we can break now
			if err := reader.Close(); err != nil {
				return nil, nil, errors.New("could not close metadata reader")
			}
			break
		}
		if err != nil {
			_ = reader.Close()
			return nil, nil, err
		}
		result = append(result, id)
		numResults++
	}

	// Return the reader to the cache
	err = s.namespaceReaderMgr.put(reader)
	if err != nil {
		return nil, nil, err
	}

	if numResults >= limit {
		endPos := int64(reader.MetadataRead()) // want `useafterput`
		// This volume may be different from the one initially requested,
		// e.g. if there was a compaction between the last call and this one.
		volume := int64(reader.Status().Volume)

		// We hit the limit, return results with page token
		token = &PageToken{
			CurrBlockStartUnixNanos: blockStart.UnixNano(),
			CurrBlockEntryIdx:       endPos,
			Volume:                  volume,
		}
	}
	return result, token, nil
}
