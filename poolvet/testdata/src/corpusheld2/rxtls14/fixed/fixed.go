// Package fixed is the repaired twin of x-stp/rxtls#14 (https://github.com/x-stp/rxtls/pull/14): Get is asserted to *strings.Builder, the type New returns, and the builder is reset before it goes back.
package fixed

import (
	"fmt"
	"strings"
	"sync"
)

var builderPool = sync.Pool{New: func() any { return new(strings.Builder) }}

// FormatLine renders one output line for a certificate's domain.
func FormatLine(index int, domain string) string {
	sb := builderPool.Get().(*strings.Builder)
	fmt.Fprintf(sb, "%d,%s\n", index, domain)
	line := sb.String()
	sb.Reset()
	builderPool.Put(sb)
	return line
}
