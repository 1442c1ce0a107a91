package golangci_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"github.com/poolkit/pool/golangci"
	"github.com/poolkit/pool/poolvet"
)

var allChecks = []string{"doubleput", "noreset", "nonpointer", "typemismatch", "unbounded", "useafterput"}

// build registers nothing itself: it goes through register.GetPlugin as
// golangci-lint does, then builds the analyzers.
func build(t *testing.T, settings any) {
	t.Helper()
	newPlugin, err := register.GetPlugin("poolvet")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(settings)
	if err != nil {
		t.Fatalf("New(%v): %v", settings, err)
	}
	if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
		t.Errorf("GetLoadMode() = %q, want %q", got, register.LoadModeTypesInfo)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || as[0] != poolvet.Analyzer {
		t.Fatalf("BuildAnalyzers() = %v, want [poolvet.Analyzer]", as)
	}
}

// flags returns the value of every check's flag on poolvet.Analyzer.
func flags(t *testing.T) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, c := range allChecks {
		f := poolvet.Analyzer.Flags.Lookup(c)
		if f == nil {
			t.Fatalf("poolvet.Analyzer has no flag %q", c)
		}
		m[c] = f.Value.String()
	}
	return m
}

func want(off ...string) map[string]string {
	m := map[string]string{}
	for _, c := range allChecks {
		m[c] = "true"
	}
	for _, c := range off {
		m[c] = "false"
	}
	return m
}

func TestRegistered(t *testing.T) {
	if golangci.Name != "poolvet" {
		t.Errorf("Name = %q", golangci.Name)
	}
	build(t, nil)
	if got, w := flags(t), want(); !maps.Equal(got, w) {
		t.Errorf("flags = %v, want %v", got, w)
	}
}

// The settings arrive as golangci-lint's YAML decoder produces them.
func TestSettings(t *testing.T) {
	tests := []struct {
		name     string
		settings any
		off      []string
	}{
		{"nil", nil, nil},
		{"empty", map[string]any{}, nil},
		{"disable", map[string]any{"disable": []any{"unbounded", "noreset"}}, []string{"unbounded", "noreset"}},
		{"booleans", map[string]any{"nonpointer": false, "useafterput": true}, []string{"nonpointer"}},
		{"both", map[string]any{"disable": []any{"typemismatch"}, "doubleput": false, "typemismatch": false}, []string{"typemismatch", "doubleput"}},
		{"disable null", map[string]any{"disable": nil}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Start from every check off, so a check the settings leave
			// alone must be turned back on: flags are shared between builds.
			for _, c := range allChecks {
				if err := poolvet.Analyzer.Flags.Set(c, "false"); err != nil {
					t.Fatal(err)
				}
			}
			build(t, tt.settings)
			if got, w := flags(t), want(tt.off...); !maps.Equal(got, w) {
				t.Errorf("flags = %v, want %v", got, w)
			}
		})
	}
	build(t, nil) // leave the defaults behind
}

func TestBadSettings(t *testing.T) {
	tests := []struct {
		name     string
		settings any
		errs     []string // substrings of the error
	}{
		{"unknown key", map[string]any{"unbouned": false}, []string{"poolvet plugin settings", `unknown setting "unbouned"`, "useafterput"}},
		{"unknown check in disable", map[string]any{"disable": []any{"leaks"}}, []string{`disable: unknown check "leaks"`, "doubleput"}},
		{"disable not a list", map[string]any{"disable": "unbounded"}, []string{"disable: want a list of check names, got string"}},
		{"disable element not a string", map[string]any{"disable": []any{1}}, []string{"disable: want a list of check names"}},
		{"check not a bool", map[string]any{"unbounded": "no"}, []string{"unbounded: want true or false, got string no"}},
		{"contradiction", map[string]any{"disable": []any{"noreset"}, "noreset": true}, []string{"noreset: set to true but also listed in disable"}},
		{"not a map", []any{"unbounded"}, []string{"poolvet plugin settings", "decoding settings"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := golangci.New(tt.settings)
			if err == nil {
				t.Fatalf("New(%v) = %v, nil; want an error", tt.settings, p)
			}
			for _, s := range tt.errs {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("New(%v) error %q does not contain %q", tt.settings, err, s)
				}
			}
		})
	}
}
