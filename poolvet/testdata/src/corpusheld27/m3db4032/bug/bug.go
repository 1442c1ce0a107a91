// Package bug reproduces the shape of m3db/m3#4032
// (https://github.com/m3db/m3/pull/4032): index query results objects are
// pooled. Each holds a results map that grows to the number of documents the
// query matched; Reset only clears the entries, so the map keeps its buckets.
// Finalize put every results object back unconditionally, so one huge query
// left a huge map in the pool indefinitely. The fix tracks utilization and
// drops objects whose map stayed much larger than what recent queries used.
//
// Check: unbounded (Finalize returns a results object with an arbitrarily
// grown map to the pool).
package bug

import "sync"

// Document is an indexed document.
type Document struct {
	ID     []byte
	Fields map[string]string
}

// QueryResultsOptions bounds one query.
type QueryResultsOptions struct {
	SizeLimit int
	FilterID  func(id []byte) bool
}

// QueryResultsPool pools results objects.
type QueryResultsPool interface {
	Get() *Results
	Put(r *Results)
}

type queryResultsPool struct {
	pool sync.Pool
}

// NewQueryResultsPool returns a pool of results objects.
func NewQueryResultsPool() QueryResultsPool {
	p := &queryResultsPool{}
	p.pool.New = func() any {
		return &Results{resultsMap: make(map[string]Document, 64), pool: p}
	}
	return p
}

func (p *queryResultsPool) Get() *Results  { return p.pool.Get().(*Results) }
func (p *queryResultsPool) Put(r *Results) { p.pool.Put(r) }

// Results collects the documents matched by a query.
type Results struct {
	sync.RWMutex

	nsID           string
	opts           QueryResultsOptions
	resultsMap     map[string]Document
	totalDocsCount int

	pool QueryResultsPool
}

// Reset prepares the results for a new query; the map keeps its storage.
func (r *Results) Reset(nsID string, opts QueryResultsOptions) {
	r.Lock()
	r.nsID = nsID
	clear(r.resultsMap)
	r.totalDocsCount = 0
	r.opts = opts
	r.Unlock()
}

// AddDocuments adds a batch, skipping duplicates.
func (r *Results) AddDocuments(batch []Document) (int, int) {
	r.Lock()
	for _, d := range batch {
		if r.opts.FilterID != nil && !r.opts.FilterID(d.ID) {
			continue
		}
		if _, ok := r.resultsMap[string(d.ID)]; ok {
			continue
		}
		r.resultsMap[string(d.ID)] = d
		if r.opts.SizeLimit > 0 && len(r.resultsMap) >= r.opts.SizeLimit {
			break
		}
	}
	r.totalDocsCount += len(batch)
	size, total := len(r.resultsMap), r.totalDocsCount
	r.Unlock()
	return size, total
}

// Finalize releases the results back to its pool.
func (r *Results) Finalize() {
	// Reset locks so cannot hold onto lock for call to Finalize.
	r.Reset("", QueryResultsOptions{})

	if r.pool == nil {
		return
	}
	r.pool.Put(r) // want `unbounded`
}

// Query runs one query against a namespace.
func Query(p QueryResultsPool, ns string, opts QueryResultsOptions, batches [][]Document) int {
	res := p.Get()
	res.Reset(ns, opts)
	defer res.Finalize()
	n := 0
	for _, b := range batches {
		n, _ = res.AddDocuments(b)
	}
	return n
}
