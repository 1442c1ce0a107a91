// Package bug reproduces the shape of gofiber/fiber#4581
// (https://github.com/gofiber/fiber/pull/4581, commit 92a6a5e6787384cafa6780f34026242e8ac6ce5c
// "fix: stop pooled flash messages leaking into the next request"): a request
// carrying the flash cookie decodes it into DefaultCtx.flashMessages. When the
// ctx goes back to app.pool, release() only truncated that slice with [:0],
// leaving the old messages (including WithInput's copy of a submitted form)
// in the backing array. The generated decoder re-slices existing capacity and
// assigns only the fields each message carries, so a cookie holding N empty
// messages handed the next request whatever the previous one left there.
// The fix zeroes the whole backing array in release() and again before decoding.
//
// Check: noreset (release() truncates flashMessages with [:0] instead of
// clearing the entries before the ctx is put back into app.pool).
package bug

import (
	"encoding/hex"
	"errors"
	"sync"
)

const FlashCookieName = "fiber_flash"

var errShort = errors.New("msg: short buffer")

type redirectionMsg struct {
	key        string
	value      string
	level      uint8
	isOldInput bool
}

type redirectionMsgs []redirectionMsg

func readString(b []byte) (string, []byte, error) {
	if len(b) < 1 || len(b) < 1+int(b[0]) {
		return "", b, errShort
	}
	n := int(b[0])
	return string(b[1 : 1+n]), b[1+n:], nil
}

// UnmarshalMsg decodes one message map; like the msgp-generated code it only
// assigns the fields present in the encoding.
func (z *redirectionMsg) UnmarshalMsg(b []byte) ([]byte, error) {
	if len(b) < 1 {
		return b, errShort
	}
	fields := int(b[0])
	b = b[1:]
	var err error
	for i := 0; i < fields; i++ {
		if len(b) < 1 {
			return b, errShort
		}
		tag := b[0]
		b = b[1:]
		switch tag {
		case 'k':
			z.key, b, err = readString(b)
		case 'v':
			z.value, b, err = readString(b)
		case 'l':
			if len(b) < 1 {
				return b, errShort
			}
			z.level, b = b[0], b[1:]
		case 'o':
			if len(b) < 1 {
				return b, errShort
			}
			z.isOldInput, b = b[0] != 0, b[1:]
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// UnmarshalMsg decodes the array, re-slicing existing capacity when it fits.
func (z *redirectionMsgs) UnmarshalMsg(b []byte) ([]byte, error) {
	if len(b) < 1 {
		return b, errShort
	}
	n := int(b[0])
	b = b[1:]
	if cap(*z) >= n {
		*z = (*z)[:n]
	} else {
		*z = make(redirectionMsgs, n)
	}
	var err error
	for i := range *z {
		b, err = (*z)[i].UnmarshalMsg(b)
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// FlashMessage is what handlers read back.
type FlashMessage struct {
	Key, Value string
	Level      uint8
}

type DefaultCtx struct {
	app           *App
	cookies       map[string]string
	route         string
	flashMessages redirectionMsgs
	viewBindMap   map[string]any
	redirect      *Redirect
}

func (c *DefaultCtx) Cookies(name string) string { return c.cookies[name] }

func (c *DefaultCtx) Reset(route string, cookies map[string]string) {
	c.route = route
	c.cookies = cookies
}

// release resets ctx fields before the ctx returns to the pool.
func (c *DefaultCtx) release() {
	c.route = ""
	c.cookies = nil
	clear(c.flashMessages[:cap(c.flashMessages)])
	c.flashMessages = c.flashMessages[:0]
	if c.viewBindMap != nil {
		clear(c.viewBindMap)
	}
	if c.redirect != nil {
		releaseRedirect(c.redirect)
		c.redirect = nil
	}
}

// Redirect reads and writes flash messages for a ctx.
type Redirect struct {
	c        *DefaultCtx
	messages redirectionMsgs
}

var redirectPool = sync.Pool{
	New: func() any { return &Redirect{} },
}

func (c *DefaultCtx) Redirect() *Redirect {
	if c.redirect == nil {
		c.redirect = redirectPool.Get().(*Redirect)
		c.redirect.c = c
	}
	return c.redirect
}

func releaseRedirect(r *Redirect) {
	r.c = nil
	clear(r.messages)
	r.messages = r.messages[:0]
	redirectPool.Put(r)
}

// parseAndClearFlashMessages decodes the flash cookie into the ctx.
func (r *Redirect) parseAndClearFlashMessages() {
	cookieValue, err := hex.DecodeString(r.c.Cookies(FlashCookieName))
	if err != nil {
		return
	}
	// The decoder re-slices this capacity and assigns only present fields.
	clear(r.c.flashMessages[:cap(r.c.flashMessages)])
	r.c.flashMessages = r.c.flashMessages[:0]
	_, _ = r.c.flashMessages.UnmarshalMsg(cookieValue)
}

// Messages returns the non-input flash messages of this request.
func (r *Redirect) Messages() []FlashMessage {
	out := make([]FlashMessage, 0, len(r.c.flashMessages))
	for _, m := range r.c.flashMessages {
		if !m.isOldInput {
			out = append(out, FlashMessage{Key: m.key, Value: m.value, Level: m.level})
		}
	}
	return out
}

type App struct {
	pool sync.Pool
}

func NewApp() *App {
	app := &App{}
	app.pool.New = func() any { return &DefaultCtx{app: app} }
	return app
}

func (app *App) AcquireCtx(route string, cookies map[string]string) *DefaultCtx {
	c := app.pool.Get().(*DefaultCtx)
	c.Reset(route, cookies)
	return c
}

func (app *App) ReleaseCtx(c *DefaultCtx) {
	c.release()
	app.pool.Put(c)
}

// Handle serves one request that reads its flash messages.
func (app *App) Handle(route string, cookies map[string]string) []FlashMessage {
	c := app.AcquireCtx(route, cookies)
	defer app.ReleaseCtx(c)
	r := c.Redirect()
	r.parseAndClearFlashMessages()
	return r.Messages()
}
