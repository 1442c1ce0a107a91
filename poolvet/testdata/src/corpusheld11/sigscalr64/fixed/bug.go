// Package fixed is the obvious fix for sigscalr/sigscalr-client#64
// (https://github.com/sigscalr/sigscalr-client/pull/64): the builder returns
// a copy of the payload, so the pooled buffer can go back when it returns.
// (The PR instead delayed the Put until after the request; copying keeps the
// pooled memory away from net/http's transport goroutines entirely.)
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

func generateESBody(recs int, actionLine string, rdr Generator) ([]byte, error) {
	bb := getBuf()
	defer putBuf(bb)

	for i := 0; i < recs; i++ {
		bb.WriteString(actionLine)
		line, err := rdr.GetLogLine()
		if err != nil {
			return nil, err
		}
		bb.Write(line)
		bb.WriteString("\n")
	}
	payLoad := bytes.Clone(bb.Bytes())
	return payLoad, nil
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

func runIngestion(client *http.Client, rdr Generator, url string, actionLines []string, batches, batchSize int) error {
	if len(actionLines) == 0 {
		return errNoLines
	}
	for i := 0; i < batches; i++ {
		payload, err := generateESBody(batchSize, actionLines[i%len(actionLines)], rdr)
		if err != nil {
			return err
		}
		if err := sendRequest(client, payload, url); err != nil {
			return err
		}
	}
	return nil
}
