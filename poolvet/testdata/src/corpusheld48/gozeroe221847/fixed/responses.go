// Source: https://github.com/zeromicro/go-zero/pull/5186 (the bug and its fix
// are commits on that pull request's branch; the PR itself was not merged)
// Fix commit: https://github.com/zeromicro/go-zero/commit/e22184756a6ac8fc320248a4af96d4113742732e
// ("修复 doWriteJson 函数中的缓冲区重置问题，以确保在 JSON 序列化前清空缓冲区" -
// fix the buffer reset problem in doWriteJson so the buffer is emptied before
// JSON serialization).
//
// Bug: rest/httpx doWriteJson took a *bytes.Buffer from a package sync.Pool,
// let jsonx.MarshalWithBuffer encode the response into it and put it back
// with a deferred bufferPool.Put(buf), never resetting it. The next request
// that gets the same buffer appends its JSON after the previous response's
// bytes, and MarshalWithBuffer returns buf.Bytes(), so the client receives
// the previous user's response body followed by its own.
// Fix: doWriteJson calls buf.Reset() right after Get, before the buffer is
// handed to MarshalWithBuffer.
// Check: noreset (the deferred bufferPool.Put(buf) in doWriteJson returns a
// buffer that still holds the last response and is never reset)
//
// Note: the pool has no size cap on Put in either twin (the fix did not add
// one); only the missing reset is the bug this case is about.
package fixed

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
)

const contentTypeJson = "application/json; charset=utf-8"

var bufferPool = sync.Pool{
	New: func() any {
		return new(bytes.Buffer)
	},
}

// MarshalWithBuffer is core/jsonx.MarshalWithBuffer.
func MarshalWithBuffer(v any, buf *bytes.Buffer) ([]byte, error) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}

	bs := buf.Bytes()
	// Remove trailing newline added by json.Encoder.Encode
	if len(bs) > 0 && bs[len(bs)-1] == '\n' {
		bs = bs[:len(bs)-1]
	}

	return bs, nil
}

// WriteJson writes v as json string into w with code.
func WriteJson(w http.ResponseWriter, code int, v any) {
	if err := doWriteJson(w, code, v); err != nil {
		fmt.Println(err)
	}
}

func doWriteJson(w http.ResponseWriter, code int, v any) error {
	buf := bufferPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufferPool.Put(buf)
	bs, err := MarshalWithBuffer(v, buf)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return fmt.Errorf("marshal json failed, error: %w", err)
	}

	w.Header().Set("Content-Type", contentTypeJson)
	w.WriteHeader(code)

	if n, err := w.Write(bs); err != nil {
		// http.ErrHandlerTimeout has been handled by http.TimeoutHandler,
		// so it's ignored here.
		if !errors.Is(err, http.ErrHandlerTimeout) {
			return fmt.Errorf("write response failed, error: %w", err)
		}
	} else if n < len(bs) {
		return fmt.Errorf("actual bytes: %d, written bytes: %d", len(bs), n)
	}

	return nil
}
