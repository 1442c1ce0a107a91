// Source: https://github.com/caddyserver/caddy/pull/4963 (fixes
// https://github.com/caddyserver/caddy/issues/4962; commit
// dc62d468e9645f52a5e1b4f6093dff65137ab3fe, "fileserver: reset buffer before
// using it", modules/caddyhttp/fileserver/browse.go).
// Not from the container/image-tooling domain: that domain ran dry for this
// writer, so this is a general Go project (the Caddy web server).
//
// Bug: serveBrowse takes a *bytes.Buffer from bufPool and returns it with
// "defer bufPool.Put(buf)". On success the buffer is drained by buf.WriteTo(w),
// but when the JSON encoding or the template execution fails half way, the
// function returns an error with the partial output still in the buffer, and
// the deferred Put puts that dirty buffer back. Nothing resets buffers taken
// from the pool, so the next directory listing is appended to the stale bytes
// of an earlier request and sent to another client.
//
// Fix: buf.Reset() right after bufPool.Get().
//
// Check: noreset (the deferred Put returns a buffer that still holds the
// partial output of a failed listing; no Reset on either side of the pool)
package fixed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"sync"
)

type fileInfo struct {
	Name  string `json:"name"`
	Size  int64  `json:"size"`
	IsDir bool   `json:"is_dir"`
}

type browseTemplateContext struct {
	Name  string
	Path  string
	Items []fileInfo
}

type templateContext struct {
	Req *http.Request
	browseTemplateContext
}

// FileServer implements a static file server responder.
type FileServer struct {
	Root         string
	TemplateFile string

	listDir func(dirPath string) (browseTemplateContext, error)
}

func (fsrv *FileServer) serveBrowse(root, dirPath string, w http.ResponseWriter, r *http.Request) error {
	listing, err := fsrv.listDir(dirPath)
	if err != nil {
		return err
	}

	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)

	acceptHeader := strings.ToLower(strings.Join(r.Header["Accept"], ","))

	// write response as either JSON or HTML
	if strings.Contains(acceptHeader, "application/json") {
		if err := json.NewEncoder(buf).Encode(listing.Items); err != nil {
			return fmt.Errorf("status %d: %v", http.StatusInternalServerError, err)
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	} else {
		tplCtx := &templateContext{
			Req:                   r,
			browseTemplateContext: listing,
		}

		tpl, err := fsrv.makeBrowseTemplate(tplCtx)
		if err != nil {
			return fmt.Errorf("parsing browse template: %v", err)
		}
		if err := tpl.Execute(buf, tplCtx); err != nil {
			return fmt.Errorf("status %d: %v", http.StatusInternalServerError, err)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
	}

	_, _ = buf.WriteTo(w)

	return nil
}

func (fsrv *FileServer) makeBrowseTemplate(tplCtx *templateContext) (*template.Template, error) {
	if fsrv.TemplateFile != "" {
		return template.New("browse").ParseFiles(fsrv.TemplateFile)
	}
	return template.New("default_listing").Parse(defaultBrowseTemplate)
}

const defaultBrowseTemplate = `<html><body><h1>{{.Name}}</h1><ul>{{range .Items}}<li>{{.Name}}</li>{{end}}</ul></body></html>`

// bufPool is used to increase the efficiency of file listings.
var bufPool = sync.Pool{
	New: func() interface{} {
		return new(bytes.Buffer)
	},
}
