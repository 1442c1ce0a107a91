// Package bug is the fixed twin of pocketbase/pocketbase commit b419498
// (https://github.com/pocketbase/pocketbase/commit/b419498d9cbb1d79001cfacb30d8775664e4c9a9):
// each callback saves the VM's default $app before overwriting it and restores
// it after the run, so the pooled VM goes back clean.
// Check: noreset (none in this twin).
package bug

import (
	"errors"
	"sync"
)

// hooksBinds registers a script hook that runs on a pooled VM.
func hooksBinds(executors *vmsPool, pr *Program, handlerArgs []any) error {
	return executors.run(func(executor *Runtime) error {
		oldApp := executor.Get("$app")
		executor.Set("__args", handlerArgs)
		res, err := executor.RunProgram(pr)
		executor.Set("__args", Undefined)
		executor.Set("$app", oldApp) // reset to its default for the executor

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
			oldApp := executor.Get("$app")
			executor.Set("$app", e.App) // overwrite the global $app with the hook scoped instance
			executor.Set("__args", []any{e})
			res, err := executor.RunProgram(pr)
			executor.Set("__args", Undefined)
			executor.Set("$app", oldApp)

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
