// Package fixed follows sigscalr/sigscalr-client#64's fix
// (https://github.com/sigscalr/sigscalr-client/pull/64): the caller owns the
// pooled buffer, the builder only fills it, and the buffer goes back to the
// pool after the request that reads it has been sent.
package fixed

import (
	"bytes"
	"errors"
	"net/http"
	"sync"
)

const maxPooled = 4 << 20

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuf() *bytes.Buffer {
	bb := bufPool.Get().(*bytes.Buffer)
	bb.Reset()
	return bb
}

func putBuf(bb *bytes.Buffer) {
	if bb.Cap() > maxPooled {
		return
	}
	bb.Reset()
	bufPool.Put(bb)
}

type Generator interface {
	GetLogLine() ([]byte, error)
}

var errNoLines = errors.New("no action lines")

func generateESBody(bb *bytes.Buffer, recs int, actionLine string, rdr Generator) error {
	for i := 0; i < recs; i++ {
		bb.WriteString(actionLine)
		line, err := rdr.GetLogLine()
		if err != nil {
			return err
		}
		bb.Write(line)
		bb.WriteString("\n")
	}
	return nil
}

func sendRequest(client *http.Client, lines []byte, url string) error {
	req, err := http.NewRequest("POST", url+"/_bulk", bytes.NewReader(lines))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func sendBatch(client *http.Client, rdr Generator, url, actionLine string, batchSize int) error {
	bb := getBuf()
	defer putBuf(bb)
	if err := generateESBody(bb, batchSize, actionLine, rdr); err != nil {
		return err
	}
	return sendRequest(client, bb.Bytes(), url)
}

func runIngestion(client *http.Client, rdr Generator, url string, actionLines []string, batches, batchSize int) error {
	if len(actionLines) == 0 {
		return errNoLines
	}
	for i := 0; i < batches; i++ {
		if err := sendBatch(client, rdr, url, actionLines[i%len(actionLines)], batchSize); err != nil {
			return err
		}
	}
	return nil
}
