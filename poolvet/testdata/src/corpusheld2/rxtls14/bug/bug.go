// Package bug reproduces the shape of x-stp/rxtls#14 (https://github.com/x-stp/rxtls/pull/14): as reported in issue #13, the pool's New returned a *strings.Builder, but the code that formatted output lines asserted Get to the value type strings.Builder (and then wrote through &sb). The assertion can never succeed, so the first Get panicked; the fix asserts to *strings.Builder.
//
// Check: typemismatch (Get asserted to strings.Builder while New returns *strings.Builder).
package bug

import (
	"fmt"
	"strings"
	"sync"
)

var builderPool = sync.Pool{New: func() any { return new(strings.Builder) }}

// FormatLine renders one output line for a certificate's domain.
func FormatLine(index int, domain string) string {
	sb := builderPool.Get().(strings.Builder) // want `asserted to|typemismatch`
	fmt.Fprintf(&sb, "%d,%s\n", index, domain)
	line := sb.String()
	sb.Reset()
	builderPool.Put(&sb)
	return line
}
