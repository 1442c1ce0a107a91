// Source: https://github.com/roadrunner-server/http/commit/111678c3d008b99c7b42c8970c248d5223a3edcc
// ("fix: clear uploads"), merged as
// https://github.com/roadrunner-server/http/commit/c9655e0f445ce595500a8e3e6193a9958bef5cc0
// ("[#25]: bug(uploads): clear uploads structure before putting it back to the `sync.Pool`").
//
// Bug: the HTTP handler recycles *Request objects through h.reqPool. putReq
// clears RawQuery, RemoteAddr, Header, Cookies, Attributes, body, ... before
// the Put, but forgets Uploads. request() only sets req.Uploads for
// multipart requests, so the next non-multipart request that gets this
// object from the pool still carries the previous client's uploads: Open()
// moves them again, Payload() marshals them into the context sent to the PHP
// worker, and Close() clears them a second time.
//
// Fix: putReq also sets req.Uploads = nil before h.reqPool.Put(req).
// (The upstream merge also removed the unrelated OTLP field; it is left out
// here.)
//
// Check: noreset (the Put in putReq returns the Request with Uploads of the
// last request still set).
package fixed

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

const (
	defaultMaxMemory = 32 << 20 // 32 MB
	contentNone      = iota + 900
	contentStream
	contentMultipart
	contentFormData
)

const codecJSON byte = 0x08

// Payload stands in for github.com/roadrunner-server/api/v2/payload.Payload.
type Payload struct {
	Codec   byte
	Context []byte
	Body    []byte
}

// Pool is the trimmed worker pool interface.
type Pool interface {
	Exec(p *Payload) (*Payload, error)
}

// FileUpload and Uploads are trimmed from handler/uploads.go.
type FileUpload struct {
	Name         string `json:"name"`
	Mime         string `json:"mime"`
	Size         int64  `json:"size"`
	TempFilename string `json:"tmpName"`
}

type Uploads struct {
	tree map[string][]*FileUpload
	list []*FileUpload
}

func (u *Uploads) Open(log *log.Logger, dir string, forbid, allow map[string]struct{}) {
	for _, f := range u.list {
		log.Printf("open upload %s in %s", f.Name, dir)
	}
}

func (u *Uploads) Clear(log *log.Logger) {
	for _, f := range u.list {
		log.Printf("remove temp file %s", f.TempFilename)
	}
}

func (u *Uploads) MarshalJSON() ([]byte, error) {
	return json.Marshal(u.tree)
}

func parseUploads(r *http.Request) *Uploads {
	u := &Uploads{tree: make(map[string][]*FileUpload)}
	for k, v := range r.MultipartForm.File {
		for _, f := range v {
			fu := &FileUpload{Name: f.Filename, Mime: f.Header.Get("Content-Type"), Size: f.Size}
			u.tree[k] = append(u.tree[k], fu)
			u.list = append(u.list, fu)
		}
	}
	return u
}

// Request maps net/http requests to PSR7 compatible structure and managed state of temporary uploaded files.
type Request struct {
	RemoteAddr string                 `json:"remoteAddr"`
	Protocol   string                 `json:"protocol"`
	Method     string                 `json:"method"`
	URI        string                 `json:"uri"`
	Header     http.Header            `json:"headers"`
	Cookies    map[string]string      `json:"cookies"`
	RawQuery   string                 `json:"rawQuery"`
	Parsed     bool                   `json:"parsed"`
	Uploads    *Uploads               `json:"uploads"`
	Attributes map[string]interface{} `json:"attributes"`

	// request body can be parsedData or []byte
	body interface{}
}

func FetchIP(pair string) string {
	if !strings.ContainsRune(pair, ':') {
		return pair
	}

	addr, _, _ := net.SplitHostPort(pair)
	return addr
}

func request(r *http.Request, req *Request) error {
	for _, c := range r.Cookies() {
		if v, err := url.QueryUnescape(c.Value); err == nil {
			req.Cookies[c.Name] = v
		}
	}

	switch req.contentType() {
	case contentNone:
		return nil

	case contentStream:
		var err error
		req.body, err = io.ReadAll(r.Body)
		return err

	case contentMultipart:
		if err := r.ParseMultipartForm(defaultMaxMemory); err != nil {
			return err
		}

		req.Uploads = parseUploads(r)
		fallthrough
	case contentFormData:
		if err := r.ParseForm(); err != nil {
			return err
		}

		req.body = r.PostForm
	}

	req.Parsed = true
	return nil
}

// Open moves all uploaded files to temporary directory so it can be given to php later.
func (r *Request) Open(log *log.Logger, dir string, forbid, allow map[string]struct{}) {
	if r.Uploads == nil {
		return
	}

	r.Uploads.Open(log, dir, forbid, allow)
}

// Close clears all temp file uploads
func (r *Request) Close(log *log.Logger) {
	if r.Uploads == nil {
		return
	}

	r.Uploads.Clear(log)
}

// Payload request marshaled RoadRunner payload based on PSR7 data.
func (r *Request) Payload(p *Payload) error {
	var err error
	p.Context, err = json.Marshal(r)
	if err != nil {
		return err
	}

	if r.Parsed {
		p.Body, err = json.Marshal(r.body)
		if err != nil {
			return err
		}

		return nil
	}

	if r.body != nil {
		p.Body = r.body.([]byte)
	}

	return nil
}

func (r *Request) contentType() int {
	if r.Method == "HEAD" || r.Method == "OPTIONS" {
		return contentNone
	}

	ct := r.Header.Get("content-type")
	if strings.Contains(ct, "application/x-www-form-urlencoded") {
		return contentFormData
	}

	if strings.Contains(ct, "multipart/form-data") {
		return contentMultipart
	}

	return contentStream
}

// URI fetches full uri from request.
func URI(r *http.Request) string {
	uri := r.URL.String()
	if r.URL.Host != "" {
		return uri
	}

	if r.TLS != nil {
		return fmt.Sprintf("https://%s%s", r.Host, uri)
	}

	return fmt.Sprintf("http://%s%s", r.Host, uri)
}

type uploads struct {
	dir    string
	allow  map[string]struct{}
	forbid map[string]struct{}
}

// Handler serves http connections to underlying PHP application.
type Handler struct {
	uploads *uploads
	log     *log.Logger
	pool    Pool

	reqPool sync.Pool
	pldPool sync.Pool
}

func NewHandler(dir string, pool Pool, log *log.Logger) *Handler {
	return &Handler{
		uploads: &uploads{dir: dir},
		pool:    pool,
		log:     log,
		reqPool: sync.Pool{
			New: func() any {
				return &Request{
					Attributes: make(map[string]interface{}),
					Cookies:    make(map[string]string),
					body:       nil,
				}
			},
		},
		pldPool: sync.Pool{
			New: func() interface{} {
				return &Payload{
					Body:    make([]byte, 0, 100),
					Context: make([]byte, 0, 100),
				}
			},
		},
	}
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req := h.getReq(r)
	err := request(r, req)
	if err != nil {
		req.Close(h.log)
		h.putReq(req)
		http.Error(w, err.Error(), 500)
		return
	}

	req.Open(h.log, h.uploads.dir, h.uploads.forbid, h.uploads.allow)
	// get payload from the pool
	pld := h.getPld()

	err = req.Payload(pld)
	if err != nil {
		req.Close(h.log)
		h.putReq(req)
		h.putPld(pld)
		http.Error(w, err.Error(), 500)
		return
	}

	wResp, err := h.pool.Exec(pld)
	if err != nil {
		req.Close(h.log)
		h.putReq(req)
		h.putPld(pld)
		if errors.Is(err, io.ErrClosedPipe) {
			return
		}
		http.Error(w, err.Error(), 500)
		return
	}

	_, _ = w.Write(wResp.Body)

	h.putPld(pld)
	req.Close(h.log)
	h.putReq(req)
}

func (h *Handler) putReq(req *Request) {
	req.RemoteAddr = ""
	req.Protocol = ""
	req.Method = ""
	req.URI = ""
	req.Header = nil
	req.Cookies = nil
	req.RawQuery = ""
	req.Parsed = false
	req.Uploads = nil
	req.Attributes = nil
	req.body = nil

	h.reqPool.Put(req)
}

func (h *Handler) getReq(r *http.Request) *Request {
	req := h.reqPool.Get().(*Request)

	rq := r.URL.RawQuery
	rq = strings.ReplaceAll(rq, "\n", "")
	rq = strings.ReplaceAll(rq, "\r", "")

	req.RawQuery = rq
	req.RemoteAddr = FetchIP(r.RemoteAddr)
	req.Protocol = r.Proto
	req.Method = r.Method
	req.URI = URI(r)
	req.Header = r.Header
	req.Cookies = make(map[string]string)
	req.Attributes = allAttributes(r)

	req.Parsed = false
	req.body = nil
	return req
}

// allAttributes stands in for attributes.All(r).
func allAttributes(r *http.Request) map[string]interface{} {
	if v, ok := r.Context().Value(attributesKey{}).(map[string]interface{}); ok {
		return v
	}
	return nil
}

type attributesKey struct{}

func (h *Handler) getPld() *Payload {
	pld := h.pldPool.Get().(*Payload)
	pld.Codec = codecJSON
	return pld
}

func (h *Handler) putPld(pld *Payload) {
	pld.Body = nil
	pld.Context = nil
	h.pldPool.Put(pld)
}
