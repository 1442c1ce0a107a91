// Package bug reproduces the shape of ReliablyObserve/loki-vl-proxy#535 "fix: keep pooled fastjson parsers
// until borrowed values are read" (https://github.com/ReliablyObserve/loki-vl-proxy/pull/535). The
// /loki/api/v1/series handler took a fastjson Parser from the process-wide parser pool, parsed the
// VictoriaLogs response and put the Parser straight back, then built the Loki response from the parsed root
// value. A fastjson Value lives in its Parser's value cache and points into the Parser's byte buffer, so a
// concurrent request that gets the same Parser rewrites them while this handler still walks the values: the
// response can carry another tenant's streams and labels. The fix returns the Parser only after every read.
// Check: useafterput (the parsed root, owned by the pooled Parser, is used after the Parser went back;
// reported at the first use).
package bug

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Value is a parsed JSON node; it lives in its Parser's cache and points into the Parser's buffer.
type Value struct {
	kind   byte // 'o' object, 'a' array, 's' string
	keys   []string
	fields []*Value
	items  []*Value
	str    []byte
}

func (v *Value) Get(key string) *Value {
	if v == nil || v.kind != 'o' {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.fields[i]
		}
	}
	return nil
}

func (v *Value) GetArray(key string) []*Value {
	a := v.Get(key)
	if a == nil || a.kind != 'a' {
		return nil
	}
	return a.items
}

func (v *Value) GetStringBytes(key string) []byte {
	s := v.Get(key)
	if s == nil || s.kind != 's' {
		return nil
	}
	return s.str
}

// Parser reuses its byte buffer and its value cache on every ParseBytes call.
type Parser struct {
	b     []byte
	cache []Value
}

func (p *Parser) newValue() *Value {
	if len(p.cache) < cap(p.cache) {
		p.cache = p.cache[:len(p.cache)+1]
	} else {
		p.cache = append(p.cache, Value{})
	}
	v := &p.cache[len(p.cache)-1]
	*v = Value{}
	return v
}

// ParseBytes parses the tiny {"values":[{"value":"..."},...]} shape the handler needs.
func (p *Parser) ParseBytes(b []byte) (*Value, error) {
	p.b = append(p.b[:0], b...)
	p.cache = p.cache[:0]
	root := p.newValue()
	root.kind = 'o'
	arr := p.newValue()
	arr.kind = 'a'
	root.keys = append(root.keys, "values")
	root.fields = append(root.fields, arr)
	rest := p.b
	for {
		i := strings.Index(string(rest), `"value":"`)
		if i < 0 {
			break
		}
		rest = rest[i+len(`"value":"`):]
		j := strings.IndexByte(string(rest), '"')
		if j < 0 {
			return nil, strconv.ErrSyntax
		}
		item := p.newValue()
		item.kind = 'o'
		s := p.newValue()
		s.kind = 's'
		s.str = rest[:j]
		item.keys = append(item.keys, "value")
		item.fields = append(item.fields, s)
		arr.items = append(arr.items, item)
		rest = rest[j:]
	}
	return root, nil
}

// ParserPool pools Parsers.
type ParserPool struct {
	pool sync.Pool
}

func (pp *ParserPool) Get() *Parser {
	v := pp.pool.Get()
	if v == nil {
		return &Parser{}
	}
	return v.(*Parser)
}

func (pp *ParserPool) Put(p *Parser) {
	if cap(p.b) > 1<<20 || cap(p.cache) > 1<<14 {
		return
	}
	p.b = p.b[:0]
	clear(p.cache)
	p.cache = p.cache[:0]
	pp.pool.Put(p)
}

var vlFJParserPool ParserPool

func parseStreamLabels(s string) map[string]string {
	out := map[string]string{}
	s = strings.Trim(s, "{}")
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if ok {
			out[strings.TrimSpace(k)] = strings.Trim(v, `\"`)
		}
	}
	return out
}

func writeSeries(w http.ResponseWriter, body []byte) {
	fjp := vlFJParserPool.Get()
	fjRoot, err := fjp.ParseBytes(body)
	vlFJParserPool.Put(fjp)

	var sb strings.Builder
	sb.WriteString(`{"status":"success","data":[`)
	first := true

	if err == nil {
		arr := fjRoot.GetArray("values") // want `useafterput`
		for _, item := range arr {
			streamStr := string(item.GetStringBytes("value"))
			stream := parseStreamLabels(streamStr)
			if len(stream) == 0 {
				continue
			}
			keys := make([]string, 0, len(stream))
			for k := range stream {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			if !first {
				sb.WriteByte(',')
			}
			first = false
			sb.WriteByte('{')
			for i, k := range keys {
				if i > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString(strconv.Quote(k))
				sb.WriteByte(':')
				sb.WriteString(strconv.Quote(stream[k]))
			}
			sb.WriteByte('}')
		}
	}
	sb.WriteString(`]}`)
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(sb.String()))
}
