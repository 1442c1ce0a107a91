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
		{"noreset/dirtyget", []string{"noreset"}},
		{"noreset/dirtygetok", []string{"noreset"}},
		{"typemismatch", []string{"typemismatch"}},
		{"typemismatch/ifacepool", checks},
		{"unbounded/chanstruct", []string{"unbounded"}},
		{"unbounded/chanstructok", []string{"unbounded"}},
		{"usewrap", []string{"useafterput", "doubleput"}},
		{"stdlike", checks},
		{"realbugs", []string{"useafterput", "doubleput", "nonpointer", "noreset", "typemismatch"}},
		{"realbugsunbounded", checks},
		{"precision", checks},
		{"interproc", []string{"useafterput", "doubleput", "noreset", "unbounded"}},
		{"disabled", nil},
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

// TestCategories checks that every diagnostic names its check, and that the
// disabled package, with every check on, is reported by each of them.
func TestCategories(t *testing.T) {
	only(t, checks...)
	results := analysistest.Run(&quiet{t}, analysistest.TestData(), poolvet.Analyzer, "disabled")
	got := map[string]int{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			got[d.Category]++
		}
	}
	for _, c := range []string{"useafterput", "doubleput", "nonpointer", "noreset", "unbounded", "typemismatch"} {
		if got[c] == 0 {
			t.Errorf("got no %s diagnostic in package disabled; want at least one (all: %v)", c, got)
		}
	}
}

// quiet is a Testing that drops analysistest's complaints about unexpected
// diagnostics: TestCategories looks at the diagnostics itself.
type quiet struct{ t *testing.T }

func (q *quiet) Errorf(format string, args ...any) {}

// TestNoCrash runs every check over package crash, whose shapes once made
// poolvet panic or reach unusual SSA (method values and expressions of Get
// and Put, pools in generic fields, arrays, maps and interfaces, closures,
// recover, goto, select, range-over-func). A panic fails the test; so does
// an analysis error. What it reports there is not looked at.
func TestNoCrash(t *testing.T) {
	only(t, checks...)
	results := analysistest.Run(&quiet{t}, analysistest.TestData(), poolvet.Analyzer, "crash")
	if len(results) == 0 {
		t.Fatal("got no result for package crash")
	}
	for _, r := range results {
		if r.Err != nil {
			t.Errorf("package %s: got error %v; want none", r.Pass.Pkg.Path(), r.Err)
		}
	}
}
