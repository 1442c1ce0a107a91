// Package bug reproduces the shape of tealeg/xlsx#830
// (https://github.com/tealeg/xlsx/pull/830, commit 0c9b983cf36d): the shared
// strings reader added in tealeg/xlsx#828 kept a tokPool whose New returns
// *xml.StartElement, but the loop overwrote the pooled value with the token
// returned by xml.Decoder.Token and then put that token back. Tokens are
// values (xml.StartElement and xml.EndElement structs, xml.CharData byte
// slices), never the *xml.StartElement the pool hands out, so every Put boxes
// a different, non-pointer type. The fix (a staticcheck clean-up) dropped
// tokPool and reads tokens without pooling them.
// Check: typemismatch (the tokPool.Put at the end of the loop body).
package bug

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

const defaultRefTableSize = 1024

var (
	tokPool = sync.Pool{
		New: func() interface{} {
			return &xml.StartElement{}
		},
	}

	xlsxSIPool = sync.Pool{
		New: func() interface{} {
			return &xlsxSI{}
		},
	}

	xmlAttrPool = sync.Pool{
		New: func() interface{} {
			return &xml.Attr{}
		},
	}
)

type xlsxR struct {
	T string `xml:"t"`
}

type xlsxT struct {
	Text string `xml:",chardata"`
}

type xlsxSI struct {
	T *xlsxT  `xml:"t"`
	R []xlsxR `xml:"r"`
}

func (t *xlsxT) getText() string {
	if t == nil {
		return ""
	}
	return t.Text
}

type RefTable struct {
	strings []string
	isWrite bool
}

func NewSharedStringRefTable(size int) *RefTable {
	return &RefTable{strings: make([]string, 0, size)}
}

func (rt *RefTable) AddString(s string) { rt.strings = append(rt.strings, s) }

func (rt *RefTable) AddRichText(r []xlsxR) {
	s := ""
	for _, run := range r {
		s += run.T
	}
	rt.strings = append(rt.strings, s)
}

func readSharedStrings(rc io.Reader) (*RefTable, error) {
	var err error
	var decoder *xml.Decoder
	var reftable *RefTable
	var tok xml.Token
	var count int
	var countS string
	var ok bool
	var si *xlsxSI
	var attr *xml.Attr

	wrap := func(err error) (*RefTable, error) {
		return nil, fmt.Errorf("readSharedStrings: %w", err)
	}

	decoder = xml.NewDecoder(rc)

	for {
		tok = tokPool.Get().(xml.Token)
		tok, err = decoder.Token()
		if tok == nil {
			break
		} else if err == io.EOF {
			break
		}
		if err != nil {
			return wrap(err)
		}
		switch ty := tok.(type) {
		case xml.StartElement:
			switch ty.Name.Local {
			case "sst":
				attr = xmlAttrPool.Get().(*xml.Attr)
				ok = false
				for _, a := range ty.Attr {
					if a.Name.Local == "count" {
						*attr = a
						countS = attr.Value
						ok = true
						break
					}
				}
				*attr = xml.Attr{}
				xmlAttrPool.Put(attr)
				if !ok {
					reftable = NewSharedStringRefTable(defaultRefTableSize)
				} else {
					count, err = strconv.Atoi(countS)
					if err != nil {
						return wrap(err)
					}
					reftable = NewSharedStringRefTable(count)
				}
				reftable.isWrite = false
			case "si":
				if reftable == nil {
					return wrap(errors.New("si encountered before reftable created"))
				}
				si = xlsxSIPool.Get().(*xlsxSI)
				if err = decoder.DecodeElement(si, &ty); err != nil {
					si.R = nil
					si.T = nil
					xlsxSIPool.Put(si)
					return wrap(err)
				}
				if len(si.R) > 0 {
					reftable.AddRichText(si.R)
				} else {
					reftable.AddString(si.T.getText())
				}
				// clear before going back to the pool, otherwise the next
				// <si> decoded into it inherits these runs
				si.R = nil
				si.T = nil
				xlsxSIPool.Put(si)
			default:
				// nothing to do
			}
		default:
			// nothing to do
		}
		tokPool.Put(tok) // want `typemismatch`
	}

	if reftable == nil {
		return nil, errors.New("uninitialised reftable")
	}
	return reftable, nil
}
