package fixed

import "fmt"

// Stand-ins for the cgo bindings to libzstd's ZBUFF streaming API used by
// zstd_stream.go (C.ZBUFF_createDCtx, C.ZBUFF_decompressContinue, ...).

type zbuffDCtx struct {
	dict []byte
}

func zbuffCreateDCtx() *zbuffDCtx { return &zbuffDCtx{} }

func zbuffDecompressInit(ctx *zbuffDCtx) int { return 0 }

func zbuffDecompressInitDictionary(ctx *zbuffDCtx, dict []byte) int {
	ctx.dict = dict
	return 0
}

// zbuffDecompressContinue "decompresses" src into dst; it reports how much of
// src it consumed and how much of dst it produced, and returns a hint for the
// next src size.
func zbuffDecompressContinue(ctx *zbuffDCtx, dst []byte, dstSize *int, src []byte, srcSize *int) int {
	n := copy(dst[:*dstSize], src[:*srcSize])
	*dstSize = n
	*srcSize = n
	return 0
}

func zbuffFreeDCtx(ctx *zbuffDCtx) int { return 0 }

func zbuffRecommendedDInSize() int  { return 128 << 10 }
func zbuffRecommendedDOutSize() int { return 128 << 10 }

type ErrorCode int

func (e ErrorCode) Error() string { return fmt.Sprintf("zstd error %d", int(e)) }

func getError(code int) error {
	if code < 0 {
		return ErrorCode(code)
	}
	return nil
}
