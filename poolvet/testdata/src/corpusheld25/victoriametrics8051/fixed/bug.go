// Package bug reproduces the shape of VictoriaMetrics/VictoriaMetrics#8051
// (https://github.com/VictoriaMetrics/VictoriaMetrics/issues/8051, fixed by
// commit 1ba7df8599 "app/vmauth: remove readTrackingBody pool"): vmauth wraps
// each proxied request body in a readTrackingBody (which records what was read
// so the request can be retried on another backend). The wrapper came from a
// sync.Pool: processRequest took it with getReadTrackingBody, deferred
// putReadTrackingBody, and installed it as r.Body before trying the backends
// with http.RoundTripper.RoundTrip. net/http may keep reading and closing a
// request body in its own goroutine after RoundTrip returned (see
// golang/go#51907), so once processRequest returned and the deferred put
// reset and recycled the wrapper, the transport could still call Read/Close
// on it while another request was using it: panics and data races. The fix
// allocates a fresh readTrackingBody per request.
//
// This is the fixed twin: every request gets its own readTrackingBody, which
// the garbage collector reclaims once net/http is done with it.
//
// Check: useafterput (fixed twin, no report expected).
package bug

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
)

var maxRequestBodySizeToRetry = 16 * 1024

// UserInfo is a configured vmauth user.
type UserInfo struct {
	rt       http.RoundTripper
	backends []*url.URL
}

// readTrackingBody remembers what has been read so the body can be re-sent.
type readTrackingBody struct {
	maxBodySize int
	r           io.ReadCloser
	buf         []byte
	readBuf     []byte
	cannotRetry bool
	bufComplete bool
}

// newReadTrackingBody returns a fresh wrapper: it must not come from a
// sync.Pool, since http.RoundTrip may still use the request body after it
// returned.
func newReadTrackingBody(r io.ReadCloser, maxBodySize int) *readTrackingBody {
	rtb := &readTrackingBody{}
	if maxBodySize < 0 {
		maxBodySize = 0
	}
	rtb.maxBodySize = maxBodySize
	if r == nil {
		r = http.NoBody
	}
	rtb.r = r
	return rtb
}

// Read implements io.Reader.
func (rtb *readTrackingBody) Read(p []byte) (int, error) {
	if len(rtb.readBuf) > 0 {
		n := copy(p, rtb.readBuf)
		rtb.readBuf = rtb.readBuf[n:]
		return n, nil
	}
	if rtb.r == nil {
		if rtb.bufComplete {
			return 0, io.EOF
		}
		return 0, fmt.Errorf("cannot read client request body after closing client reader")
	}
	n, err := rtb.r.Read(p)
	if rtb.cannotRetry {
		return n, err
	}
	if len(rtb.buf)+n > rtb.maxBodySize {
		rtb.cannotRetry = true
		return n, err
	}
	rtb.buf = append(rtb.buf, p[:n]...)
	if err == io.EOF {
		rtb.bufComplete = true
	}
	return n, err
}

func (rtb *readTrackingBody) canRetry() bool {
	if rtb.cannotRetry {
		return false
	}
	if rtb.bufComplete {
		return true
	}
	return rtb.r != nil
}

// Close implements io.Closer; net/http calls it, possibly asynchronously.
func (rtb *readTrackingBody) Close() error {
	if !rtb.cannotRetry {
		rtb.readBuf = rtb.buf
	} else {
		rtb.readBuf = nil
	}
	if rtb.bufComplete || rtb.cannotRetry {
		if rtb.r == nil {
			return nil
		}
		err := rtb.r.Close()
		rtb.r = nil
		return err
	}
	return nil
}

func processRequest(w http.ResponseWriter, r *http.Request, ui *UserInfo) {
	rtb := newReadTrackingBody(r.Body, maxRequestBodySizeToRetry)
	r.Body = rtb

	for _, targetURL := range ui.backends {
		if tryProcessingRequest(w, r, targetURL, ui) {
			return
		}
	}
	http.Error(w, "all the backends are unavailable", http.StatusBadGateway)
}

func tryProcessingRequest(w http.ResponseWriter, r *http.Request, targetURL *url.URL, ui *UserInfo) bool {
	req := r.Clone(r.Context())
	req.URL = targetURL
	req.Host = targetURL.Host
	req.RequestURI = ""
	req.Header.Set("User-Agent", "vmauth")

	rtb, rtbOK := req.Body.(*readTrackingBody)
	res, err := ui.rt.RoundTrip(req)
	if err != nil {
		if !rtbOK || !rtb.canRetry() {
			http.Error(w, fmt.Sprintf("cannot proxy the request to %s: %s", targetURL, err), http.StatusServiceUnavailable)
			return true
		}
		return false
	}
	defer res.Body.Close()
	w.WriteHeader(res.StatusCode)
	_, _ = io.Copy(w, res.Body)
	return true
}
