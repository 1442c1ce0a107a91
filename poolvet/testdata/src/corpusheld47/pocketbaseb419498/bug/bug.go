// Package bug reproduces the shape of pocketbase/pocketbase commit b419498
// (https://github.com/pocketbase/pocketbase/commit/b419498d9cbb1d79001cfacb30d8775664e4c9a9,
// v0.39.8 changelog: "Properly reset JSVM global $app overwrite so that pooled
// executors always get a clean state"): JS hooks and route handlers borrow a
// pre-warmed goja VM from a busy-flag pool (vmsPool.run). Before running the
// script each callback overwrote the VM's global $app (with the request-scoped,
// possibly transactional, app for handlers, or with undefined for hooks), and
// after running it cleared only __args. The VM went back to the pool still
// holding the previous request's $app, so the next script that got that VM saw
// a stale app (or undefined). The fix saves the old $app and restores it after
// the run, next to the __args cleanup.
// Check: noreset (the post-run cleanup forgets $app; reported on the cleanup
// line in each callback that hands the VM back dirty).
package bug

import (
	"errors"
	"sync"
)

// hooksBinds registers a script hook that runs on a pooled VM.
func hooksBinds(executors *vmsPool, pr *Program, handlerArgs []any) error {
	return executors.run(func(executor *Runtime) error {
		executor.Set("$app", Undefined)
		executor.Set("__args", handlerArgs)
		res, err := executor.RunProgram(pr)
		executor.Set("__args", Undefined) // want `noreset`

		if resErr := checkValueForError(res); resErr != nil {
			return resErr
		}
		return err
	})
}

// wrapHandlerFunc wraps a script route handler so it runs on a pooled VM.
func wrapHandlerFunc(executors *vmsPool, pr *Program) func(e *RequestEvent) error {
	return func(e *RequestEvent) error {
		return executors.run(func(executor *Runtime) error {
			executor.Set("$app", e.App) // overwrite the global $app with the hook scoped instance
			executor.Set("__args", []any{e})
			res, err := executor.RunProgram(pr)
			executor.Set("__args", Undefined) // want `noreset`

			if resErr := checkValueForError(res); resErr != nil {
				return resErr
			}
			return err
		})
	}
}

func checkValueForError(v Value) error {
	if err, ok := v.(error); ok {
		return err
	}
	if s, ok := v.(string); ok && s == "error" {
		return errors.New("script error")
	}
	return nil
}

// Value is a script value.
type Value interface{}

// Undefined is the script "undefined" value.
var Undefined Value

// Runtime is a script VM with a global object.
type Runtime struct {
	globals map[string]Value
}

// NewRuntime creates a VM with its default globals.
func NewRuntime(app *App) *Runtime {
	return &Runtime{globals: map[string]Value{"$app": app}}
}

// Set assigns a global.
func (r *Runtime) Set(name string, v Value) { r.globals[name] = v }

// Get reads a global.
func (r *Runtime) Get(name string) Value { return r.globals[name] }

// RunProgram executes a compiled script.
func (r *Runtime) RunProgram(pr *Program) (Value, error) { return pr.body(r) }

// Program is a compiled script.
type Program struct {
	body func(r *Runtime) (Value, error)
}

// App is the application (or a transaction-scoped copy of it).
type App struct {
	name string
}

// RequestEvent is one HTTP request event.
type RequestEvent struct {
	App *App
}

type poolItem struct {
	mux  sync.Mutex
	busy bool
	vm   *Runtime
}

// vmsPool is a pre-warmed pool of VMs.
type vmsPool struct {
	mux     sync.RWMutex
	factory func() *Runtime
	items   []*poolItem
}

func newPool(size int, factory func() *Runtime) *vmsPool {
	pool := &vmsPool{factory: factory, items: make([]*poolItem, size)}
	for i := 0; i < size; i++ {
		pool.items[i] = &poolItem{vm: pool.factory()}
	}
	return pool
}

// run executes call with a free pooled VM (or a one-off VM if all are busy).
func (p *vmsPool) run(call func(vm *Runtime) error) error {
	p.mux.RLock()
	var freeItem *poolItem
	for _, item := range p.items {
		item.mux.Lock()
		if item.busy {
			item.mux.Unlock()
			continue
		}
		item.busy = true
		item.mux.Unlock()
		freeItem = item
		break
	}
	p.mux.RUnlock()

	if freeItem == nil {
		return call(p.factory())
	}

	execErr := call(freeItem.vm)

	// "free" the vm
	freeItem.mux.Lock()
	freeItem.busy = false
	freeItem.mux.Unlock()

	return execErr
}
