package fixed

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

type Event struct {
	RoutingKey string
	Labels     map[string]string
	Data       any
}

type BaseSerializer struct {
	Log     *slog.Logger
	Alias   string
	Plugin  string
	metrics map[string]time.Duration
}

const (
	EventAccepted = "accepted"
	EventFailed   = "failed"
)

func (b *BaseSerializer) Observe(status string, d time.Duration) {
	if b.metrics == nil {
		b.metrics = make(map[string]time.Duration)
	}
	b.metrics[status] += d
}

type Json struct {
	*BaseSerializer `mapstructure:"-"`
	DataOnly        bool   `mapstructure:"data_only"`
	OmitFailed      bool   `mapstructure:"omit_failed"`
	Mode            string `mapstructure:"mode"`

	serFunc func(buf *bytes.Buffer, events ...*Event) ([]byte, error)

	delim string
	start string
	end   string
}

func (s *Json) Init() error {
	switch s.Mode {
	case "jsonl":
		s.delim = "\n"
	case "array":
		s.delim = ","
		s.start = "["
		s.end = "]"
	default:
		return fmt.Errorf("forbidden mode: %v, expected one of: jsonl, array", s.Mode)
	}

	if s.OmitFailed {
		s.serFunc = s.serializeTryAll
	} else {
		s.serFunc = s.serializeFailFast
	}

	return nil
}

func (s *Json) Serialize(events ...*Event) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, 1024))
	return s.serFunc(buf, events...)
}

func (s *Json) serializeTryAll(buf *bytes.Buffer, events ...*Event) ([]byte, error) {
	now := time.Now()

	buf.WriteString(s.start)
	for _, e := range events {
		rawData, err := s.eventOrData(e)
		if err != nil {
			s.Log.Error("serialization failed", "error", err, "routing_key", e.RoutingKey)
			s.Observe(EventFailed, time.Since(now))
			now = time.Now()
			continue
		}
		buf.Write(rawData)
		buf.WriteString(s.delim)

		s.Observe(EventAccepted, time.Since(now))
		now = time.Now()
	}

	if buf.Len() > len(s.start) { // at least one event serialized successfully
		buf.Truncate(buf.Len() - 1) // trim last delimeter
		buf.WriteString(s.end)
		return buf.Bytes(), nil
	}

	return nil, errors.New("all events serialization failed")
}

func (s *Json) serializeFailFast(buf *bytes.Buffer, events ...*Event) ([]byte, error) {
	now := time.Now()

	buf.WriteString(s.start)
	var sErr error
	last := len(events) - 1
	for i, e := range events {
		if sErr != nil {
			s.Log.Error("one of previous serialization failed", "error", sErr, "routing_key", e.RoutingKey)
			s.Observe(EventFailed, time.Since(now))
			now = time.Now()
			continue
		}

		rawData, err := s.eventOrData(e)
		if err != nil {
			s.Log.Error("serialization failed", "error", err, "routing_key", e.RoutingKey)
			s.Observe(EventFailed, time.Since(now))
			now = time.Now()
			sErr = err
			continue
		}
		buf.Write(rawData)
		buf.WriteString(s.delim)

		if i == last && buf.Len() > 0 {
			buf.Truncate(buf.Len() - 1) // trim last delimeter
			buf.WriteString(s.end)
		}

		s.Observe(EventAccepted, time.Since(now))
		now = time.Now()
	}

	if sErr != nil {
		return nil, sErr
	}
	return buf.Bytes(), nil
}

func (s *Json) eventOrData(event *Event) ([]byte, error) {
	if s.DataOnly {
		return json.Marshal(event.Data)
	}
	return json.Marshal(event)
}
