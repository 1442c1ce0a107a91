package poolvet_test

import (
	"testing"

	"github.com/poolkit/pool/poolvet"
	"golang.org/x/tools/go/analysis/analysistest"
)

var checks = []string{"useafterput", "doubleput", "nonpointer", "noreset", "unbounded", "typemismatch"}

// only turns on the given checks for the duration of the test.
func only(t *testing.T, on ...string) {
	t.Helper()
	set := func(name, v string) {
		if err := poolvet.Analyzer.Flags.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range checks {
		set(c, "false")
	}
	for _, c := range on {
		set(c, "true")
	}
	t.Cleanup(func() {
		for _, c := range checks {
			set(c, "true")
		}
	})
}

// TestChecks runs each check on its own testdata package, with the other
// checks off, so that each file shows exactly what its check reports.
func TestChecks(t *testing.T) {
	tests := []struct {
		pkg    string
		checks []string
	}{
		{"useafterput", []string{"useafterput"}},
		{"doubleput", []string{"doubleput"}},
		{"nonpointer", []string{"nonpointer"}},
		{"noreset", []string{"noreset"}},
		{"typemismatch", []string{"typemismatch"}},
		{"usewrap", []string{"useafterput", "doubleput"}},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			only(t, tt.checks...)
			analysistest.Run(t, analysistest.TestData(), poolvet.Analyzer, tt.pkg)
		})
	}
}

// TestUnboundedFix checks the capacity guard that the suggested fix writes.
func TestUnboundedFix(t *testing.T) {
	only(t, "unbounded")
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), poolvet.Analyzer, "unbounded")
}
