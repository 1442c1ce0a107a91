// Package bug reproduces the shape of spiffe/spire#4451
// (https://github.com/spiffe/spire/pull/4451, fixed inside the PR by commit
// 029b6a8c1 https://github.com/spiffe/spire/commit/029b6a8c19c078b68a7e6dea370e5fcf93ec4b41):
// the server's mutable authorized-entry cache borrows a scratch slice of
// entry records from a sync.Pool while it crawls the descendants of an agent
// and its aliases. freeRecordSlice truncated the slice and put the slice
// header itself into the pool, so each release boxed a slice value into an
// interface (an allocation per lookup). The fix stores *[]entryRecord.
//
// Check: nonpointer (fixed twin: the pool holds *[]entryRecord).
package bug

import (
	"sync"
)

const maxPooledRecords = 1 << 14

type entryRecord struct {
	entryID  string
	spiffeID string
	parentID string
}

// Stores pointers to record slices (staticcheck SA6002).
var recordPool = sync.Pool{
	New: func() any {
		p := []entryRecord(nil)
		return &p
	},
}

func allocRecordSlice() []entryRecord {
	return *recordPool.Get().(*[]entryRecord)
}

func freeRecordSlice(records []entryRecord) {
	if cap(records) > maxPooledRecords {
		return
	}
	records = records[:0]
	recordPool.Put(&records)
}

type stringSet map[string]struct{}

var stringSetPool = sync.Pool{
	New: func() any {
		return make(stringSet)
	},
}

func allocStringSet() stringSet { return stringSetPool.Get().(stringSet) }

func freeStringSet(set stringSet) {
	clear(set)
	stringSetPool.Put(set)
}

type Entry struct {
	ID       string
	SPIFFEID string
}

type Cache struct {
	mu       sync.RWMutex
	agents   map[string][]string
	byParent map[string][]entryRecord
	aliases  map[string][]string
}

func (c *Cache) GetAuthorizedEntries(agentID string) []*Entry {
	c.mu.RLock()
	defer c.mu.RUnlock()

	if _, ok := c.agents[agentID]; !ok {
		// agent is not attested or has expired
		return nil
	}

	parentSeen := allocStringSet()
	defer freeStringSet(parentSeen)

	records := allocRecordSlice()
	defer freeRecordSlice(records)

	records = c.appendDescendents(records, agentID, parentSeen)
	for _, aliasID := range c.aliases[agentID] {
		records = c.appendDescendents(records, aliasID, parentSeen)
	}
	return cloneEntriesFromRecords(records)
}

func (c *Cache) appendDescendents(records []entryRecord, parentID string, parentSeen stringSet) []entryRecord {
	if _, ok := parentSeen[parentID]; ok {
		return records
	}
	parentSeen[parentID] = struct{}{}

	before := len(records)
	records = append(records, c.byParent[parentID]...)
	for i := before; i < len(records); i++ {
		records = c.appendDescendents(records, records[i].spiffeID, parentSeen)
	}
	return records
}

func cloneEntriesFromRecords(records []entryRecord) []*Entry {
	if len(records) == 0 {
		return nil
	}
	out := make([]*Entry, 0, len(records))
	for _, r := range records {
		out = append(out, &Entry{ID: r.entryID, SPIFFEID: r.spiffeID})
	}
	return out
}
