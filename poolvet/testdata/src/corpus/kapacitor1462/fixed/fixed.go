// Package fixed is a fixed twin of influxdata/kapacitor#1462
// (https://github.com/influxdata/kapacitor/pull/1462): the request body is
// not pooled; ownership passes to net/http with the request.
package fixed

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
)

func Post(ctx context.Context, client *http.Client, url string, data any) error {
	body, err := json.Marshal(data)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
