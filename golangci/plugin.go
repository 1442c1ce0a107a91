// Package golangci registers poolvet as a golangci-lint module plugin.
//
// Build a golangci-lint binary that holds it with `golangci-lint custom`
// and a .custom-gcl.yml that lists this module (see
// docs/poolvet.md in github.com/poolkit/pool), then enable it in
// .golangci.yml:
//
//	linters:
//	  enable:
//	    - poolvet
//	  settings:
//	    custom:
//	      poolvet:
//	        type: module
//	        description: reports misuse of object pools
//	        settings:
//	          disable: [unbounded]   # checks to turn off
//	          noreset: false         # or one boolean per check
//
// Every check is on unless the settings turn it off. The settings are the
// flags of the poolvet command: disable lists checks to turn off, and a key
// named after a check sets that check's flag. Any other key, an unknown
// check name or a check both disabled and set to true is an error.
package golangci

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"github.com/poolkit/pool/poolvet"
	"golang.org/x/tools/go/analysis"
)

// Name is the name the plugin is registered under: the name of the linter in
// .golangci.yml.
const Name = "poolvet"

func init() { register.Plugin(Name, New) }

// Plugin is poolvet as a register.LinterPlugin.
type Plugin struct {
	// checks holds the value of each check's flag, by check name.
	checks map[string]bool
}

// New returns the plugin for the settings that golangci-lint decoded from
// linters.settings.custom.poolvet.settings (nil when there are none).
func New(settings any) (register.LinterPlugin, error) {
	checks, err := decode(settings)
	if err != nil {
		return nil, fmt.Errorf("poolvet plugin settings: %w", err)
	}
	return &Plugin{checks: checks}, nil
}

// BuildAnalyzers sets poolvet's per-check flags from the settings and
// returns poolvet.Analyzer.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	for name, on := range p.checks {
		if err := poolvet.Analyzer.Flags.Set(name, fmt.Sprint(on)); err != nil {
			return nil, fmt.Errorf("poolvet plugin: setting -%s: %w", name, err)
		}
	}
	return []*analysis.Analyzer{poolvet.Analyzer}, nil
}

// GetLoadMode reports that poolvet needs type information (it builds SSA
// and exports facts about wrappers).
func (*Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

// checkNames returns the names of poolvet's checks: its boolean flags.
func checkNames() []string {
	var names []string
	poolvet.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
			names = append(names, f.Name)
		}
	})
	slices.Sort(names)
	return names
}

// decode turns the plugin settings into the value of every check's flag.
// Every check is present in the result, so that one plugin's settings do not
// inherit another's: the flags live in the shared poolvet.Analyzer.
func decode(settings any) (map[string]bool, error) {
	raw, err := register.DecodeSettings[map[string]any](settings)
	if err != nil {
		return nil, err
	}
	names := checkNames()
	checks := make(map[string]bool, len(names))
	for _, n := range names {
		checks[n] = true
	}
	known := func(n string) error {
		if _, ok := checks[n]; !ok {
			return fmt.Errorf("unknown check %q (checks: %s)", n, strings.Join(names, ", "))
		}
		return nil
	}

	disabled := map[string]bool{}
	if v, ok := raw["disable"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("disable: want a list of check names, got %T", v)
		}
		for _, e := range list {
			n, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("disable: want a list of check names, got an element of type %T", e)
			}
			if err := known(n); err != nil {
				return nil, fmt.Errorf("disable: %w", err)
			}
			disabled[n] = true
			checks[n] = false
		}
	}

	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys) // report the first bad key deterministically
	for _, k := range keys {
		if k == "disable" {
			continue
		}
		if _, ok := checks[k]; !ok {
			return nil, fmt.Errorf("unknown setting %q (want disable or a check: %s)", k, strings.Join(names, ", "))
		}
		on, ok := raw[k].(bool)
		if !ok {
			return nil, fmt.Errorf("%s: want true or false, got %T %v", k, raw[k], raw[k])
		}
		if on && disabled[k] {
			return nil, fmt.Errorf("%s: set to true but also listed in disable", k)
		}
		checks[k] = on
	}
	return checks, nil
}
