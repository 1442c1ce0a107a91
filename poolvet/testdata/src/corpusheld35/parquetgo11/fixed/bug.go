// Package bug reproduces the shape of parquet-go/parquet-go#11
// (https://github.com/parquet-go/parquet-go/pull/11, commit fa0525301ed8,
// later referenced by parquet-go/parquet-go#71): page headers read from a
// column chunk were recycled through a sync.Pool. The thrift decoder only
// assigns the fields that are present on the wire, so a header taken from the
// pool kept the optional sub-headers (data page, dictionary page, v2 header)
// of the previous page. putPageHeader only cleared the CRC before the Put;
// the fix zeroes the whole header.
// Check: noreset (the Put in putPageHeader returns a header that still holds
// the previous page's sub-headers).
package bug

import (
	"errors"
	"io"
	"sync"
)

type PageType int32

const (
	DataPage PageType = iota
	DictionaryPage
	DataPageV2
)

type DataPageHeader struct {
	NumValues int32
	Encoding  int32
}

type DictionaryPageHeader struct {
	NumValues int32
	IsSorted  bool
}

type DataPageHeaderV2 struct {
	NumValues int32
	NumNulls  int32
	NumRows   int32
}

type PageHeader struct {
	Type                 PageType
	UncompressedPageSize int32
	CompressedPageSize   int32
	CRC                  int32
	DataPageHeader       *DataPageHeader
	DictionaryPageHeader *DictionaryPageHeader
	DataPageHeaderV2     *DataPageHeaderV2
}

// wireField is one field of the compact protocol stream.
type wireField struct {
	id    int
	value int32
}

// decoder assigns only the fields it finds in the stream, like the thrift
// decoder: anything absent keeps whatever the target already held.
type decoder struct {
	fields [][]wireField
}

func (d *decoder) Decode(h *PageHeader) error {
	if len(d.fields) == 0 {
		return io.EOF
	}
	msg := d.fields[0]
	d.fields = d.fields[1:]
	for _, f := range msg {
		switch f.id {
		case 1:
			h.Type = PageType(f.value)
		case 2:
			h.UncompressedPageSize = f.value
		case 3:
			h.CompressedPageSize = f.value
		case 4:
			h.CRC = f.value
		case 5:
			if h.DataPageHeader == nil {
				h.DataPageHeader = new(DataPageHeader)
			}
			h.DataPageHeader.NumValues = f.value
		case 7:
			if h.DictionaryPageHeader == nil {
				h.DictionaryPageHeader = new(DictionaryPageHeader)
			}
			h.DictionaryPageHeader.NumValues = f.value
		case 8:
			if h.DataPageHeaderV2 == nil {
				h.DataPageHeaderV2 = new(DataPageHeaderV2)
			}
			h.DataPageHeaderV2.NumValues = f.value
		default:
			return errors.New("unknown field")
		}
	}
	return nil
}

var pageHeaderPool = &sync.Pool{
	New: func() any {
		return new(PageHeader)
	},
}

func getPageHeader() *PageHeader {
	return pageHeaderPool.Get().(*PageHeader)
}

func putPageHeader(h *PageHeader) {
	*h = PageHeader{}
	pageHeaderPool.Put(h)
}

type Page struct {
	Kind      PageType
	NumValues int32
}

type filePages struct {
	decoder decoder
	index   int
}

func (f *filePages) readPage(header *PageHeader) (*Page, error) {
	switch {
	case header.DataPageHeaderV2 != nil:
		return &Page{Kind: DataPageV2, NumValues: header.DataPageHeaderV2.NumValues}, nil
	case header.DataPageHeader != nil:
		return &Page{Kind: DataPage, NumValues: header.DataPageHeader.NumValues}, nil
	case header.DictionaryPageHeader != nil:
		return nil, nil
	}
	return nil, errors.New("page header without a sub-header")
}

func (f *filePages) ReadPage() (*Page, error) {
	header := getPageHeader()
	defer putPageHeader(header)

	for {
		if err := f.decoder.Decode(header); err != nil {
			return nil, err
		}
		page, err := f.readPage(header)
		if err != nil {
			return nil, err
		}
		if page == nil {
			continue
		}
		f.index++
		return page, nil
	}
}
