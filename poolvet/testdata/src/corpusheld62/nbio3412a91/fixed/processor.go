// Source: https://github.com/lesismal/nbio/commit/3412a9128a319b554b9019cb6c313f6326c1ec5b
// ("http client: remove response pool logic(users may keep using the response)")
//
// Bug: the nbhttp client took its *http.Response objects from
// stdResponsePool and, once the response was complete, ran the user's
// handler on the parser's executor and then immediately zeroed the response
// and put it back into the pool. The handler is user code that may keep the
// response (store it, hand it to another goroutine, read it later), so the
// same object could be reset and handed out for the next response while the
// user still used it.
//
// Fix: the response pool was removed; each response is a fresh
// &http.Response{} that is never put back.
//
// Check: useafterput (res is handed to the user handler, which may retain it,
// and is then put back into the pool; the report is expected at the
// releaseStdResponse call after that hand-off)
package fixed

import (
	"net/http"
)

// Parser mirrors nbhttp.Parser: Execute runs f on the configured executor
// (a goroutine pool by default).
type Parser struct {
	Execute func(f func())
}

// ClientProcessor mirrors nbhttp.ClientProcessor.
type ClientProcessor struct {
	response *http.Response
	handler  func(res *http.Response, err error)
}

func NewClientProcessor(handler func(res *http.Response, err error)) *ClientProcessor {
	return &ClientProcessor{handler: handler}
}

// OnProto .
func (p *ClientProcessor) OnProto(proto string) error {
	p.response = &http.Response{}
	p.response.Proto = proto
	p.response.Header = http.Header{}
	return nil
}

// OnStatus .
func (p *ClientProcessor) OnStatus(code int, status string) {
	p.response.StatusCode = code
	p.response.Status = status
}

// OnHeader .
func (p *ClientProcessor) OnHeader(key, value string) {
	p.response.Header.Add(key, value)
}

// OnComplete .
func (p *ClientProcessor) OnComplete(parser *Parser) {
	res := p.response
	p.response = nil
	parser.Execute(func() {
		p.handler(res, nil)
	})
}
