// Package bug reproduces the shape of prebid/prebid-server#4544
// (https://github.com/prebid/prebid-server/pull/4544, commit 6c1c81be6737be9025c1735348a75883ae07d52b
// "undo problematic pool changes"): while reworking the Scope3 real-time-data module, the per-auction
// AsyncRequest was taken from a sync.Pool in the entrypoint hook and put back (after a full reset) in a
// deferred func of the auction-response hook. The raw-auction hook starts a goroutine that later fills
// ar.Segments / ar.Err and closes ar.Done. When the response hook gives up waiting because its context
// is done, the deferred put returns the request to the pool while that goroutine is still running, so
// the goroutine writes into (and closes the channel of) an object that the pool may already have handed
// to the next auction. The fix dropped the pool and allocates a fresh AsyncRequest per auction.
//
// Check: useafterput (the goroutine's writes to the request after the deferred putAsyncRequest in
// HandleAuctionResponseHook; reported at the first write in the goroutine).
package bug

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"net/http"
	"sync"
)

const asyncRequestKey = "scope3.AsyncRequest"

// BidRequest stands in for the OpenRTB bid request.
type BidRequest struct {
	ID     string
	SiteID string
	UserID string
}

// ModuleContext is the per-auction map passed between hooks.
type ModuleContext map[string]any

// Module is the Scope3 RTD module.
type Module struct {
	httpClient *http.Client
	// sha256Pool provides reusable SHA-256 hashers
	sha256Pool *sync.Pool
}

// AsyncRequest carries one background segment fetch across hooks.
type AsyncRequest struct {
	*Module

	Context context.Context
	Cancel  context.CancelFunc
	// Done is closed when the fetch finishes; nil when no fetch was started.
	Done chan struct{}

	Segments []string
	Err      error
}

// Builder creates the module.
func Builder() *Module {
	return &Module{
		httpClient: &http.Client{},
		sha256Pool: &sync.Pool{
			New: func() any { return sha256.New() },
		},
	}
}

// NewAsyncRequest allocates a fresh AsyncRequest for one auction.
func (m *Module) NewAsyncRequest(req *http.Request) *AsyncRequest {
	ret := &AsyncRequest{Module: m}
	ret.Context, ret.Cancel = context.WithCancel(req.Context())
	return ret
}

// fetchScope3SegmentsAsync starts the fetch and returns at once.
func (ar *AsyncRequest) fetchScope3SegmentsAsync(request *BidRequest) {
	ar.Done = make(chan struct{})
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ar.Err = fmt.Errorf("panic in async request: %v", r)
			}
			close(ar.Done)
		}()
		ar.Segments, ar.Err = ar.Module.fetchScope3Segments(ar.Context, request)
	}()
}

func (m *Module) fetchScope3Segments(ctx context.Context, request *BidRequest) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	key := m.createCacheKey(request)
	return []string{"seg-" + key[:8]}, nil
}

func (m *Module) createCacheKey(request *BidRequest) string {
	hasher := m.sha256Pool.Get().(hash.Hash)
	hasher.Reset()
	defer m.sha256Pool.Put(hasher)

	hasher.Write([]byte("site:" + request.SiteID))
	if request.UserID != "" {
		userHasher := m.sha256Pool.Get().(hash.Hash)
		userHasher.Reset()
		defer m.sha256Pool.Put(userHasher)

		userHasher.Write([]byte("user_id:" + request.UserID))
		hasher.Write([]byte("hashed_user_id:" + hex.EncodeToString(userHasher.Sum(nil))))
	}
	return hex.EncodeToString(hasher.Sum(nil))
}

// HandleEntrypointHook stores a new AsyncRequest in the module context.
func (m *Module) HandleEntrypointHook(req *http.Request) ModuleContext {
	return ModuleContext{
		asyncRequestKey: m.NewAsyncRequest(req),
	}
}

// HandleRawAuctionHook starts the background fetch.
func (m *Module) HandleRawAuctionHook(mc ModuleContext, request BidRequest) error {
	asyncRequest, ok := mc[asyncRequestKey].(*AsyncRequest)
	if !ok {
		return fmt.Errorf("failed to get async request from module context")
	}
	asyncRequest.fetchScope3SegmentsAsync(&request)
	return nil
}

// HandleAuctionResponseHook waits for the fetch and returns the segments.
func (m *Module) HandleAuctionResponseHook(ctx context.Context, mc ModuleContext) ([]string, error) {
	asyncRequest, ok := mc[asyncRequestKey].(*AsyncRequest)
	if !ok {
		return nil, fmt.Errorf("failed to get async request from module context")
	}
	// always cancel the request context to free resources
	defer asyncRequest.Cancel()

	if asyncRequest.Done == nil {
		return nil, nil
	}

	select {
	case <-asyncRequest.Done:
	case <-ctx.Done():
		return nil, nil // gave up; the fetch goroutine may still be running
	}

	segments, err := asyncRequest.Segments, asyncRequest.Err
	if err != nil {
		return nil, err
	}
	out := make([]string, len(segments))
	copy(out, segments)
	return out, nil
}
