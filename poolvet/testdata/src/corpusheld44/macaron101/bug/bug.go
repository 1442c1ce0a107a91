// Package bug reproduces the shape of go-macaron/macaron#101
// (https://github.com/go-macaron/macaron/issues/101, fixed in
// https://github.com/go-macaron/macaron/commit/4974334): the template renderer
// executes a template into a *bytes.Buffer taken from a sync.Pool (execute
// never resets it, it relies on buffers coming back empty), copies the buffer
// to the response with WriteTo and puts it back. When WriteTo fails (client
// gone, under load) the unread output stays in the buffer, so the next render
// that gets it appends its page after the previous one: pages rendered twice,
// another user's HTML leaked. The fix resets the buffer when WriteTo fails.
//
// Check: noreset (the bufpool.Put(out) in renderHTML).
package bug

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"sync"
	"time"
)

const maxPooledBuf = 1 << 20

var (
	// Provides a temporary buffer to execute templates into and catch errors.
	bufpool = sync.Pool{
		New: func() interface{} { return new(bytes.Buffer) },
	}
)

// HTMLOptions are per-call rendering options.
type HTMLOptions struct {
	Layout string
}

// RenderOptions configure the renderer.
type RenderOptions struct {
	HTMLContentType string
}

// TplRender renders templates into the response.
type TplRender struct {
	http.ResponseWriter
	Opt             *RenderOptions
	CompiledCharset string
	sets            map[string]*template.Template
	startTime       time.Time
}

// Get returns the template set by name.
func (r *TplRender) Get(name string) *template.Template {
	return r.sets[name]
}

func (r *TplRender) prepareHTMLOptions(htmlOpt []HTMLOptions) HTMLOptions {
	if len(htmlOpt) > 0 {
		return htmlOpt[0]
	}
	return HTMLOptions{}
}

func (r *TplRender) execute(t *template.Template, name string, data interface{}) (*bytes.Buffer, error) {
	buf := bufpool.Get().(*bytes.Buffer)
	return buf, t.ExecuteTemplate(buf, name, data)
}

func (r *TplRender) renderBytes(setName, tplName string, data interface{}, htmlOpt ...HTMLOptions) (*bytes.Buffer, error) {
	t := r.Get(setName)
	if t == nil {
		return nil, fmt.Errorf("html/template: template %q is undefined", tplName)
	}

	opt := r.prepareHTMLOptions(htmlOpt)
	if len(opt.Layout) > 0 {
		tplName = opt.Layout
	}

	out, err := r.execute(t, tplName, data)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (r *TplRender) renderHTML(status int, setName, tplName string, data interface{}, htmlOpt ...HTMLOptions) {
	r.startTime = time.Now()

	out, err := r.renderBytes(setName, tplName, data, htmlOpt...)
	if err != nil {
		http.Error(r, err.Error(), http.StatusInternalServerError)
		return
	}

	r.Header().Set("Content-Type", r.Opt.HTMLContentType+r.CompiledCharset)
	r.WriteHeader(status)

	out.WriteTo(r)
	if out.Cap() <= maxPooledBuf {
		bufpool.Put(out) // want `noreset`
	}
}

// HTML renders the named template of the default set.
func (r *TplRender) HTML(status int, name string, data interface{}, htmlOpt ...HTMLOptions) {
	r.renderHTML(status, "DEFAULT", name, data, htmlOpt...)
}
