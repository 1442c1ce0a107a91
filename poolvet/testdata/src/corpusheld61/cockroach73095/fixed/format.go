// Source: https://github.com/cockroachdb/cockroach/pull/73095
// ("sql: reset indexedTypeFormatter on FmtCtx close").
//
// Bug: tree.FmtCtx objects are pooled in fmtCtxPool. FmtCtx.Close() resets
// the buffer, flags, annotations and the indexedVarFormat,
// tableNameFormatter and placeholderFormat interceptors before putting the
// context back, but forgot the indexedTypeFormatter interceptor (set via
// FmtIndexedTypeFormat). The next NewFmtCtx caller that got the same
// object from the pool kept formatting OIDTypeReferences with the previous
// user's function, so e.g. RESTORE could map type OIDs to invalid types.
// Fix: Close() also sets ctx.indexedTypeFormatter = nil.
//
// Check: noreset (at the Put in FmtCtx.Close, which returns the context to
// fmtCtxPool with the previous user's indexedTypeFormatter still set)
package fixed

import (
	"bytes"
	"fmt"
	"sync"
)

// FmtFlags carries options for the pretty-printer.
type FmtFlags int

// HasFlags tests whether the given flags are all set.
func (f FmtFlags) HasFlags(subset FmtFlags) bool {
	return f&subset == subset
}

const (
	FmtSimple                  FmtFlags = 0
	FmtAlwaysQualifyTableNames FmtFlags = 1 << iota
)

const flagsRequiringAnnotations = FmtAlwaysQualifyTableNames

type Annotations struct{}

type TableName struct{ Name string }

type Placeholder struct{ Idx int }

// OIDTypeReference is a reference to a type by its OID.
type OIDTypeReference struct {
	OID uint32
}

type DataConversionConfig struct {
	BytesEncodeFormat int
}

// FmtCtx is suitable for passing to Format() methods.
type FmtCtx struct {
	bytes.Buffer

	dataConversionConfig DataConversionConfig

	// NOTE: if you add more flags to this structure, make sure to add
	// corresponding cleanup code in FmtCtx.Close().

	flags                FmtFlags
	ann                  *Annotations
	indexedVarFormat     func(ctx *FmtCtx, idx int)
	tableNameFormatter   func(*FmtCtx, *TableName)
	placeholderFormat    func(ctx *FmtCtx, p *Placeholder)
	indexedTypeFormatter func(*FmtCtx, *OIDTypeReference)
}

// FmtCtxOption is an option to pass into NewFmtCtx.
type FmtCtxOption func(*FmtCtx)

// FmtIndexedTypeFormat modifies FmtCtx to customize the printing of
// IDTypeReferences using the provided function.
func FmtIndexedTypeFormat(fn func(*FmtCtx, *OIDTypeReference)) FmtCtxOption {
	return func(ctx *FmtCtx) {
		ctx.indexedTypeFormatter = fn
	}
}

// NewFmtCtx creates a FmtCtx; only flags that don't require Annotations
// can be used.
func NewFmtCtx(f FmtFlags, opts ...FmtCtxOption) *FmtCtx {
	ctx := fmtCtxPool.Get().(*FmtCtx)
	ctx.flags = f
	for _, opts := range opts {
		opts(ctx)
	}
	if ctx.ann == nil && f&flagsRequiringAnnotations != 0 {
		panic("no Annotations provided")
	}
	return ctx
}

// FormatTypeReference formats a type reference, letting the
// indexedTypeFormatter interceptor rewrite OID references.
func (ctx *FmtCtx) FormatTypeReference(ref *OIDTypeReference) {
	if ctx.indexedTypeFormatter != nil {
		ctx.indexedTypeFormatter(ctx, ref)
		return
	}
	fmt.Fprintf(&ctx.Buffer, "@%d", ref.OID)
}

var fmtCtxPool = sync.Pool{
	New: func() interface{} {
		return &FmtCtx{}
	},
}

// Close releases a FmtCtx for reuse. Closing a FmtCtx is not required, but is
// recommended for performance-sensitive paths.
func (ctx *FmtCtx) Close() {
	ctx.Buffer.Reset()
	ctx.flags = 0
	ctx.ann = nil
	ctx.indexedVarFormat = nil
	ctx.tableNameFormatter = nil
	ctx.placeholderFormat = nil
	ctx.indexedTypeFormatter = nil
	ctx.dataConversionConfig = DataConversionConfig{}
	fmtCtxPool.Put(ctx)
}

// CloseAndGetString combines Close() and String().
func (ctx *FmtCtx) CloseAndGetString() string {
	s := ctx.String()
	ctx.Close()
	return s
}

// rewriteTypeRefs formats a reference with the OIDs remapped, as restore
// does when rewriting descriptors.
func rewriteTypeRefs(ref *OIDTypeReference, remap map[uint32]uint32) string {
	f := NewFmtCtx(FmtSimple, FmtIndexedTypeFormat(func(ctx *FmtCtx, r *OIDTypeReference) {
		fmt.Fprintf(&ctx.Buffer, "@%d", remap[r.OID])
	}))
	f.FormatTypeReference(ref)
	return f.CloseAndGetString()
}

// serialize formats a reference without any interceptor.
func serialize(ref *OIDTypeReference) string {
	f := NewFmtCtx(FmtSimple)
	f.FormatTypeReference(ref)
	return f.CloseAndGetString()
}
