package useafterput

import (
	"context"
	"sync"
	"sync/atomic"
)

type fetchResult struct{ body []byte }

type fetchScratch struct{ buf []byte }

var fetchResults = sync.Pool{New: func() any { return new(fetchResult) }}

var fetchScratches = sync.Pool{New: func() any { return new(fetchScratch) }}

// The goroutine captures res and s and puts back only s: res
// stays the caller's, whose cancel branch puts it while the goroutine may
// still be filling it (gofiber/fiber#3830).
func fetchAsync(ctx context.Context, get func([]byte) []byte) (*fetchResult, error) {
	res := fetchResults.Get().(*fetchResult)
	s := fetchScratches.Get().(*fetchScratch)
	var done int32
	ch := make(chan struct{}, 1)
	go func() {
		defer fetchScratches.Put(s)
		s.buf = get(s.buf[:0])
		if atomic.CompareAndSwapInt32(&done, 0, 1) {
			res.body = append(res.body[:0], s.buf...)
			ch <- struct{}{}
		}
	}()
	select {
	case <-ch:
		return res, nil
	case <-ctx.Done():
		atomic.StoreInt32(&done, 1)
		fetchResults.Put(res) // want `res is put back into the pool while a goroutine started at line \d+ may still use it`
		return nil, ctx.Err()
	}
}

// The fix: the goroutine takes the result from the pool only once it has
// one, so the cancel branch has nothing to put back.
func fetchAsyncFixed(ctx context.Context, get func([]byte) []byte) (*fetchResult, error) {
	ch := make(chan *fetchResult, 1)
	s := fetchScratches.Get().(*fetchScratch)
	go func() {
		defer fetchScratches.Put(s)
		s.buf = get(s.buf[:0])
		res := fetchResults.Get().(*fetchResult)
		res.body = append(res.body[:0], s.buf...)
		ch <- res
	}()
	select {
	case res := <-ch:
		return res, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
