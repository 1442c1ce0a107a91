package useafterput

import "bytes"

// A method that keeps its argument in memory its receiver reaches, called
// on the caller's own receiver (or a field of it): the receiver holds the
// buffer's bytes after the method returns, and the deferred Put gives the
// buffer back first (gofiber/fiber#625: Render's SendBytes(buf.Bytes())
// became the response body without a copy).

type rawResponse struct{ body []byte }

func (r *rawResponse) SetBodyRaw(b []byte) { r.body = b }

func (r *rawResponse) SetBody(b []byte) { r.body = append(r.body[:0], b...) }

type fastCtx struct{ Response rawResponse }

type webCtx struct{ fast *fastCtx }

func (c *webCtx) SendBytes(b []byte) { c.fast.Response.SetBodyRaw(b) }

func (c *webCtx) Send(b []byte) { c.fast.Response.SetBody(b) }

func (c *webCtx) Render(s string) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	buf.WriteString(s)
	c.SendBytes(buf.Bytes()) // want `buf is handed to c, which outlives the call here, but the deferred Put at line 28`
}

func (c *webCtx) RenderField(s string) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	buf.WriteString(s)
	c.fast.Response.SetBodyRaw(buf.Bytes()) // want `buf is handed to c.fast.Response, which outlives the call here`
}

// The fix: a method that copies keeps nothing.
func (c *webCtx) RenderCopy(s string) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	buf.WriteString(s)
	c.Send(buf.Bytes())
}
