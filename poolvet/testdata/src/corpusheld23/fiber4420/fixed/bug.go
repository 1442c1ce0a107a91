// Package bug reproduces the shape of gofiber/fiber#4420
// (https://github.com/gofiber/fiber/pull/4420, commit 74677759 "binder: apply
// the maxPoolableDataMapSize cap to the multipart file header map pool"): the
// form binder borrows two maps from sync.Pools per request. releaseDataMap
// refuses to pool maps that grew past maxPoolableDataMapSize, but
// releaseFileHeaderMap clears and puts the file-header map back whatever its
// size, so one multipart upload with thousands of file fields leaves a huge map
// (its buckets survive clear) in the pool, reused by later small requests.
// The fix adds the same size cap to releaseFileHeaderMap.
// Check: unbounded (fixed twin: both releases apply the size cap; no report expected).
package bug

import (
	"errors"
	"mime/multipart"
	"sync"
)

var (
	dataMapPool = sync.Pool{
		New: func() any {
			return make(map[string][]string, 8)
		},
	}
	formFileMapPool = sync.Pool{
		New: func() any {
			return make(map[string][]*multipart.FileHeader)
		},
	}
)

// Keep oversized maps out of the pool so a rare large bind doesn't get retained
// and reused across subsequent requests.
const maxPoolableDataMapSize = 256

// FormBinding is the form binder for form request bodies.
type FormBinding struct {
	EnableSplitting bool
	MaxBodySize     int
}

// Name returns the binding name.
func (*FormBinding) Name() string { return "form" }

func formatBindData[V any](out any, data map[string][]V, key string, values []V) error {
	if out == nil {
		return errors.New("nil out")
	}
	data[key] = append(data[key], values...)
	return nil
}

func parse(out any, data ...any) error {
	if out == nil {
		return errors.New("nil out")
	}
	_ = data
	return nil
}

// BindMultipart binds a parsed multipart form into out.
func (b *FormBinding) BindMultipart(form *multipart.Form, out any) error {
	data := acquireDataMap()
	defer releaseDataMap(data)

	for key, values := range form.Value {
		if err := formatBindData(out, data, key, values); err != nil {
			return err
		}
	}

	files := acquireFileHeaderMap()
	defer releaseFileHeaderMap(files)

	for key, values := range form.File {
		if err := formatBindData(out, files, key, values); err != nil {
			return err
		}
	}

	return parse(out, data, files)
}

func acquireDataMap() map[string][]string {
	m, ok := dataMapPool.Get().(map[string][]string)
	if !ok {
		m = make(map[string][]string, 8)
	}
	return m
}

func releaseDataMap(m map[string][]string) {
	if len(m) > maxPoolableDataMapSize {
		return
	}
	clearDataMap(m)
	dataMapPool.Put(m)
}

func acquireFileHeaderMap() map[string][]*multipart.FileHeader {
	m, ok := formFileMapPool.Get().(map[string][]*multipart.FileHeader)
	if !ok {
		m = make(map[string][]*multipart.FileHeader)
	}
	return m
}

func releaseFileHeaderMap(m map[string][]*multipart.FileHeader) {
	if len(m) > maxPoolableDataMapSize {
		return
	}

	clearFileHeaderMap(m)
	formFileMapPool.Put(m)
}

func clearDataMap(m map[string][]string) {
	clear(m)
}

func clearFileHeaderMap(m map[string][]*multipart.FileHeader) {
	clear(m)
}
