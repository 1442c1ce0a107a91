package poolvet_test

import (
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/poolkit/pool/poolvet"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// The recall corpus: documented pool-misuse bugs from public projects, each
// rewritten as a minimal package (testdata/src/<part>/<case>/bug) with its
// fixed twin (.../fixed). testdata/corpus.md lists the cases and their
// sources. The "corpus" part is for development; the "corpusheld*" parts
// are scored only when POOLVET_HELDOUT=1 (parts 1 and 2 have been used for
// development since they were first scored; part 3 is the held-out one).
//
// The tests print recall (expected reports found / expected) and the reports
// on fixed twins. They fail only when the corpus does not load, a bug package
// has no expectation or a fixed package has one; with
// POOLVET_CORPUS_STRICT=1 they also fail below 90% recall or on any report in
// a fixed twin.
//
//	go test ./poolvet -run 'TestCorpus$' -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run 'TestCorpusHeldOut$' -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut2 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut3 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut4 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut5 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut6 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut7 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut8 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut9 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut10 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut11 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut12 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut13 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut14 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut15 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut16 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut17 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut18 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut19 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut20 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut21 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut22 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut23 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut24 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut25 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut26 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut27 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut28 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut29 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut30 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut31 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut32 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut33 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut34 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut35 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut36 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut37 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut38 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut39 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut40 -v
//	POOLVET_HELDOUT=1 go test ./poolvet -run TestCorpusHeldOut41 -v

// strictRecall is the recall that POOLVET_CORPUS_STRICT=1 requires.
const strictRecall = 0.90

func TestCorpus(t *testing.T) {
	scoreCorpus(t, "corpus")
}

func TestCorpusHeldOut(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld")
}

// TestCorpusHeldOut2 scores the second held-out part, written on
// 2026-11-23 by an engineer who had not read the analyzer. 8 of its 12
// sources are also in testdata/src/realbugs (see testdata/corpus.md), so
// only 4 of its cases are new to the analyzer.
func TestCorpusHeldOut2(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld2")
}

// TestCorpusHeldOut3 scores the third held-out part, written on 2026-11-23
// (fourth session) by two engineers who had not read the analyzer, while
// its rules were being written; it was scored once, after them. Parts 1
// and 2 were opened for development in that session.
func TestCorpusHeldOut3(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld3")
}

// TestCorpusHeldOut4 scores the fourth held-out part, written on 2026-11-23
// (fifth session) by three helpers who did not read the analyzer, from
// sources in none of the other parts. Scored once at 5d0cb68: 13/24.
func TestCorpusHeldOut4(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld4")
}

// TestCorpusHeldOut5 scores the fifth held-out part, written on 2026-11-23
// (fifth session) by three helpers who did not read the analyzer, from
// sources in none of the other parts, while part 4's misses were fixed.
// Scored once at 7ffd70c: 13/25.
func TestCorpusHeldOut5(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld5")
}

// TestCorpusHeldOut6 scores the sixth held-out part, written on 2026-11-23
// (fifth session) by three helpers who did not read the analyzer, from
// sources in none of the other parts, while part 5's misses were fixed.
// Scored once at 8e68248: 14/25.
func TestCorpusHeldOut6(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld6")
}

// TestCorpusHeldOut7 scores the seventh held-out part, written on
// 2026-11-23 (fifth session) by three helpers who did not read the
// analyzer, from sources in none of the other parts, while part 6's misses
// were fixed. Scored once at f476d69: 13/22.
func TestCorpusHeldOut7(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld7")
}

// TestCorpusHeldOut8 scores the eighth held-out part, written on
// 2026-11-23 (sixth session) by three helpers who did not read the
// analyzer, from sources in none of the other parts, while part 7's misses
// were fixed. Scored once at 1423607: 15/24.
func TestCorpusHeldOut8(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld8")
}

// TestCorpusHeldOut9 scores the ninth held-out part, written on
// 2026-11-23 (sixth session) by three helpers who did not read the
// analyzer, from sources in none of the other parts, while part 8's misses
// were fixed. Scored once at 91d2768: 15/25.
func TestCorpusHeldOut9(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld9")
}

// TestCorpusHeldOut10 scores the tenth held-out part, written on
// 2026-11-23 (sixth session) by three helpers who did not read the
// analyzer, from sources in none of the other parts, while part 9's misses
// were fixed. Scored once at 25186fa: 14/22.
func TestCorpusHeldOut10(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld10")
}

// TestCorpusHeldOut11 scores the eleventh held-out part, written on
// 2026-11-23 (seventh session) by three helpers who did not read the
// analyzer, from sources in none of the other parts, while part 10's
// misses were fixed. Scored once at 73836f4: 8/20.
func TestCorpusHeldOut11(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld11")
}

// TestCorpusHeldOut12 scores the twelfth held-out part, written on
// 2026-11-23 (seventh session) by three helpers who did not read the
// analyzer, from sources in none of the other parts, while part 11's
// misses were fixed. Scored once at 3dc1a80 (analyzer of 350e938): 8/24.
func TestCorpusHeldOut12(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld12")
}

// TestCorpusHeldOut13 scores the thirteenth held-out part, written on
// 2026-11-23 (eighth session) by three helpers who did not read the
// analyzer, from sources in none of the other parts, while part 12's
// misses were fixed. Scored once at 3d7ad75: 12/18.
func TestCorpusHeldOut13(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld13")
}

// TestCorpusHeldOut14 scores the fourteenth held-out part, written on
// 2026-11-23 (eighth session) by three other helpers who did not read the
// analyzer, from sources in none of the other parts, while part 13's
// misses were fixed. Scored once at 8d8b5f2: 11/23.
func TestCorpusHeldOut14(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld14")
}

// TestCorpusHeldOut15 scores the fifteenth held-out part, written on
// 2026-11-23 (eighth session) by three other helpers who did not read the
// analyzer, from sources in none of the other parts, while part 14's
// misses were fixed. Scored once at 6650c35: 11/17.
func TestCorpusHeldOut15(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld15")
}

// TestCorpusHeldOut16 scores the sixteenth held-out part, written on
// 2026-11-23 (ninth session) by three other helpers who did not read the
// analyzer, from sources in none of the other parts, while part 15's
// misses were fixed. Scored once at 1a9ce7f: 13/20.
func TestCorpusHeldOut16(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld16")
}

// TestCorpusHeldOut17 scores the seventeenth held-out part, written on
// 2026-11-23 (ninth session) by three other helpers who did not read the
// analyzer, from sources in none of the other parts, while part 16's
// misses were fixed. Scored once at 0fc6f29: 14/26.
func TestCorpusHeldOut17(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld17")
}

// TestCorpusHeldOut18 scores the eighteenth held-out part, written on
// 2026-11-23 (ninth session) by three other helpers who did not read the
// analyzer, from sources in none of the other parts, while part 17's
// misses were fixed. Scored once with the analyzer of c7e97e8: 7/22.
func TestCorpusHeldOut18(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld18")
}

// TestCorpusHeldOut19 scores the nineteenth held-out part, written on
// 2026-11-23 (tenth session) by three other helpers who did not read the
// analyzer, from sources in none of the other parts, while part 18's
// misses were fixed. Scored once with the analyzer of 1e3d200: 6/23.
func TestCorpusHeldOut19(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld19")
}

// TestCorpusHeldOut20 scores the twentieth held-out part, written on
// 2026-11-23 (tenth session) by three other helpers who did not read the
// analyzer, from sources in none of the other parts (six duplicates of
// part 19 were dropped), while part 19's misses were fixed. Scored once
// with the analyzer of fcb5a09: 2/17.
func TestCorpusHeldOut20(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld20")
}

// TestCorpusHeldOut21 scores the twenty-first held-out part, written on
// 2026-11-24 (eleventh session) by three other helpers who did not read
// the analyzer, from sources in none of the other parts (one duplicate
// of part 14 was dropped), while the rules for parts 13 and 18-20 were
// written. Scored once with the analyzer of 6a165c1: 4/19.
func TestCorpusHeldOut21(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld21")
}

// TestCorpusHeldOut22 scores the twenty-second held-out part, written on
// 2026-11-24 (eleventh session) by three more helpers, the same way, with
// part 21's sources added to what they had to avoid. Scored once with the
// analyzer of 6a165c1: 3/20, and 2/19 after a duplicate of part 20 found
// after scoring was dropped.
func TestCorpusHeldOut22(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld22")
}

// expectation is one `// want "re"` pattern of a bug package.
type expectation struct {
	file string // base name
	line int
	re   *regexp.Regexp
}

// caseScore is what the analyzer reported on one case.
type caseScore struct {
	name            string
	checks          []string          // checks the expectations name
	perCheck        map[string][2]int // check -> expected, found
	expected, found int
	extra           []string // reports in bug at lines without expectation
	fixedReports    []string // reports in the fixed twin
	missed          []string
}

func scoreCorpus(t *testing.T, part string) {
	only(t, checks...)
	root := filepath.Join(analysistest.TestData(), "src", part)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatalf("reading corpus %s: %v", part, err)
	}
	var names, patterns []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
			patterns = append(patterns, part+"/"+e.Name()+"/bug", part+"/"+e.Name()+"/fixed")
		}
	}
	if len(names) == 0 {
		t.Fatalf("corpus %s has no cases", part)
	}

	rec := &recorder{TB: t}
	results := analysistest.Run(rec, analysistest.TestData(), poolvet.Analyzer, patterns...)
	for _, msg := range rec.errs {
		if strings.HasPrefix(msg, "loading ") || strings.HasPrefix(msg, "error analyzing ") || strings.HasPrefix(msg, "Analyze: ") {
			t.Errorf("corpus %s does not load: %s", part, msg)
		}
	}
	diags := map[string][]analysis.Diagnostic{} // package path -> diagnostics
	var fset *token.FileSet
	for _, r := range results {
		if r.Err != nil {
			t.Errorf("%s: %v", r.Action, r.Err)
			continue
		}
		if r.Pass == nil {
			continue
		}
		fset = r.Pass.Fset
		diags[r.Pass.Pkg.Path()] = append(diags[r.Pass.Pkg.Path()], r.Diagnostics...)
	}
	if len(diags) != len(patterns) {
		t.Errorf("analyzed %d packages of corpus %s; want %d", len(diags), part, len(patterns))
	}

	var scores []caseScore
	for _, name := range names {
		s := caseScore{name: name}
		dir := filepath.Join(root, name)
		exps, err := readWants(filepath.Join(dir, "bug"))
		if err != nil {
			t.Errorf("%s/%s/bug: %v", part, name, err)
			continue
		}
		if len(exps) == 0 {
			t.Errorf("%s/%s/bug has no want comment", part, name)
		}
		fixedExps, err := readWants(filepath.Join(dir, "fixed"))
		if err != nil || len(fixedExps) != 0 {
			t.Errorf("%s/%s/fixed: has %d want comments (err %v); want none", part, name, len(fixedExps), err)
		}
		s.expected = len(exps)
		s.checks = checksOf(exps)
		s.perCheck = map[string][2]int{}

		used := map[int]bool{}
		bugDiags := diags[part+"/"+name+"/bug"]
		for _, e := range exps {
			hit := false
			for i, d := range bugDiags {
				p := fset.Position(d.Pos)
				if used[i] || filepath.Base(p.Filename) != e.file || p.Line != e.line {
					continue
				}
				if e.re.MatchString(d.Message) || e.re.MatchString(d.Category) {
					used[i], hit = true, true
					break
				}
			}
			c := s.perCheck[checkOf(e.re)]
			c[0]++
			if hit {
				c[1]++
			}
			s.perCheck[checkOf(e.re)] = c
			if hit {
				s.found++
			} else {
				s.missed = append(s.missed, fmt.Sprintf("%s:%d %s", e.file, e.line, e.re))
			}
		}
		for i, d := range bugDiags {
			if !used[i] {
				p := fset.Position(d.Pos)
				s.extra = append(s.extra, fmt.Sprintf("%s:%d [%s] %s", filepath.Base(p.Filename), p.Line, d.Category, d.Message))
			}
		}
		for _, d := range diags[part+"/"+name+"/fixed"] {
			p := fset.Position(d.Pos)
			s.fixedReports = append(s.fixedReports, fmt.Sprintf("%s:%d [%s] %s", filepath.Base(p.Filename), p.Line, d.Category, d.Message))
		}
		scores = append(scores, s)
	}
	report(t, part, scores)
}

// report prints the table and the totals, and applies the strict gate.
func report(t *testing.T, part string, scores []caseScore) {
	var expected, found, fixedCases, fixedReports, extra int
	byCheck := map[string][2]int{}
	var b strings.Builder
	fmt.Fprintf(&b, "corpus %s: %d cases\n", part, len(scores))
	fmt.Fprintf(&b, "%-22s %-24s %5s %5s %5s %5s\n", "case", "check", "want", "found", "extra", "fixed")
	for _, s := range scores {
		expected += s.expected
		found += s.found
		extra += len(s.extra)
		if len(s.fixedReports) > 0 {
			fixedCases++
			fixedReports += len(s.fixedReports)
		}
		for c, n := range s.perCheck {
			v := byCheck[c]
			v[0] += n[0]
			v[1] += n[1]
			byCheck[c] = v
		}
		fmt.Fprintf(&b, "%-22s %-24s %5d %5d %5d %5d\n", s.name, strings.Join(s.checks, ","), s.expected, s.found, len(s.extra), len(s.fixedReports))
		for _, m := range s.missed {
			fmt.Fprintf(&b, "    missed %s\n", m)
		}
		for _, x := range s.extra {
			fmt.Fprintf(&b, "    extra in bug %s\n", x)
		}
		for _, f := range s.fixedReports {
			fmt.Fprintf(&b, "    fixed twin reported %s\n", f)
		}
	}
	recall := 0.0
	if expected > 0 {
		recall = float64(found) / float64(expected)
	}
	var cs []string
	for c := range byCheck {
		cs = append(cs, c)
	}
	sort.Strings(cs)
	for _, c := range cs {
		fmt.Fprintf(&b, "recall %-12s %d/%d\n", c, byCheck[c][1], byCheck[c][0])
	}
	fmt.Fprintf(&b, "RECALL %s: %d/%d = %.1f%%; reports on fixed twins: %d in %d of %d cases; extra reports in bug packages: %d\n",
		part, found, expected, 100*recall, fixedReports, fixedCases, len(scores), extra)
	t.Log("\n" + b.String())

	if os.Getenv("POOLVET_CORPUS_STRICT") == "1" {
		if recall < strictRecall {
			t.Errorf("recall on %s is %.1f%%; want at least %.0f%%", part, 100*recall, 100*strictRecall)
		}
		if fixedReports > 0 {
			t.Errorf("%d reports on fixed twins of %s; want none", fixedReports, part)
		}
	}
}

// checksOf returns the check names that the expectations' patterns accept.
func checksOf(exps []expectation) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range exps {
		for _, c := range checks {
			if e.re.MatchString(c) && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// checkOf attributes an expectation to one check: the check whose name
// comes first in the pattern (patterns name the check they expect, then
// possibly an alternative), or the first check the pattern matches.
func checkOf(re *regexp.Regexp) string {
	best, at := "", -1
	for _, c := range checks {
		if i := strings.Index(re.String(), c); i >= 0 && (at < 0 || i < at) {
			best, at = c, i
		}
	}
	if best != "" {
		return best
	}
	for _, c := range checks {
		if re.MatchString(c) {
			return c
		}
	}
	return "?"
}

var wantComment = regexp.MustCompile(`//\s*want\s+(.*)$`)

// readWants reads the `// want` comments of the .go files in dir, in the
// syntax analysistest accepts for diagnostics: one or more Go string
// literals, each a regular expression for one expected report on that line.
func readWants(dir string) ([]expectation, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []expectation
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for i, line := range strings.Split(string(data), "\n") {
			m := wantComment.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			var sc scanner.Scanner
			fs := token.NewFileSet()
			src := []byte(m[1])
			sc.Init(fs.AddFile("", -1, len(src)), src, nil, 0)
			for {
				_, tok, lit := sc.Scan()
				if tok == token.EOF || tok == token.SEMICOLON {
					break
				}
				if tok != token.STRING {
					return nil, fmt.Errorf("%s:%d: want comment: got %s, want a string literal", filepath.Base(f), i+1, tok)
				}
				s, err := strconv.Unquote(lit)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %v", filepath.Base(f), i+1, err)
				}
				re, err := regexp.Compile(s)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %v", filepath.Base(f), i+1, err)
				}
				out = append(out, expectation{file: filepath.Base(f), line: i + 1, re: re})
			}
		}
	}
	return out, nil
}

// recorder is a testing.TB for analysistest.Run that keeps the complaints
// about unexpected or missing diagnostics instead of failing: the corpus
// tests score them themselves. Load and parse errors are still logged.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestCorpusHeldOut23 scores the twenty-third held-out part, written on
// 2026-11-24 (twelfth session) by three more helpers, the same way, with
// part 22's sources added to what they had to avoid. Scored once with the
// analyzer of d7a3e12: 6/20.
func TestCorpusHeldOut23(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld23")
}

// TestCorpusHeldOut24 scores the twenty-fourth held-out part, written on
// 2026-11-24 (twelfth session) by three more helpers, the same way, with
// part 23's sources added to what they had to avoid.
func TestCorpusHeldOut24(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld24")
}

// TestCorpusHeldOut25 scores the twenty-fifth held-out part, written on
// 2026-11-24 (thirteenth session) by three more helpers, the same way, with
// part 24's sources added to what they had to avoid.
func TestCorpusHeldOut25(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld25")
}

// TestCorpusHeldOut26 scores the twenty-sixth held-out part, written on
// 2026-11-24 (thirteenth session) by three more helpers while the rules
// from part 25's misses were written, with part 25's sources added to what
// they had to avoid.
func TestCorpusHeldOut26(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld26")
}

// TestCorpusHeldOut27 scores the twenty-seventh held-out part, written on
// 2026-11-24 (fourteenth session) by three more helpers while the rules
// from part 26's misses were written, with part 26's sources added to what
// they had to avoid.
func TestCorpusHeldOut27(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld27")
}

// TestCorpusHeldOut28 scores the twenty-eighth held-out part, written on
// 2026-11-24 (end of the fourteenth session) by three more helpers, with
// part 27's sources added to what they had to avoid. It was scored once, in
// the fifteenth session, after its duplicate checks and a clean sweep.
func TestCorpusHeldOut28(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld28")
}

// TestCorpusHeldOut29 scores the twenty-ninth held-out part, written on
// 2026-11-24 (fifteenth session) by three more helpers, with part 28's
// sources added to what they had to avoid.
func TestCorpusHeldOut29(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld29")
}

// TestCorpusHeldOut30 scores the thirtieth held-out part, written on
// 2026-11-24 (fifteenth session) by three more helpers, each searching one
// domain of projects, with part 29's sources added to what they had to
// avoid.
func TestCorpusHeldOut30(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld30")
}

// TestCorpusHeldOut31 scores the thirty-first held-out part, written on
// 2026-11-24 (fifteenth session) by three more helpers, each searching
// another domain of projects, with part 30's sources added to what they
// had to avoid.
func TestCorpusHeldOut31(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld31")
}

// TestCorpusHeldOut32 scores the thirty-second held-out part, written on
// 2026-11-24 (fifteenth session) by three more helpers by domain, with part
// 31's sources added to what they had to avoid.
func TestCorpusHeldOut32(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld32")
}

// TestCorpusHeldOut33 scores the thirty-third held-out part, written on
// 2026-11-24 at the end of the fifteenth session by three more helpers by
// domain, with part 32's sources added to what they had to avoid. It was
// scored once, in the same session, after its duplicate checks, at the
// analyzer of the last clean sweep.
func TestCorpusHeldOut33(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld33")
}

// TestCorpusHeldOut34 scores the thirty-fourth held-out part, written on
// 2026-11-24 at the start of the sixteenth session by three helpers by
// domain (RPC and serialization; proxies, tunnels and peer-to-peer;
// developer platforms and tools), with part 33's sources added to what
// they had to avoid. It was scored once, after its duplicate checks, at
// the analyzer of the last clean sweep.
func TestCorpusHeldOut34(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld34")
}

// TestCorpusHeldOut35 scores the thirty-fifth held-out part, written on
// 2026-11-24 in the sixteenth session by three helpers by domain (search
// and machine-learning infrastructure; chat, game and mail servers;
// document, text and media processing), with part 34's sources added to
// what they had to avoid. It was scored once, after its duplicate checks,
// at the analyzer of the last clean sweep.
func TestCorpusHeldOut35(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld35")
}

// TestCorpusHeldOut36 scores the thirty-sixth held-out part, written on
// 2026-11-24 in the sixteenth session by three helpers by domain (ad-tech,
// payments and trading; terminal and CLI tools; backup, sync and storage
// gateways), with part 35's sources added to what they had to avoid. It
// was scored once, after its duplicate checks, at the analyzer of the last
// clean sweep.
func TestCorpusHeldOut36(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld36")
}

// TestCorpusHeldOut37 scores the thirty-seventh held-out part, written on
// 2026-11-24 at the end of the sixteenth session by three helpers by
// domain (IoT and industrial software; real-time media; workflow engines
// and job queues), with part 36's sources added to what they had to
// avoid. It was scored once, after its duplicate checks, at the analyzer
// of the last clean sweep.
func TestCorpusHeldOut37(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld37")
}

// TestCorpusHeldOut38 scores the thirty-eighth held-out part, written on
// 2026-11-24 at the start of the seventeenth session by three helpers by
// domain (blockchain nodes and cryptography; database drivers and
// embedded databases; Kubernetes and containers), with part 37's sources
// added to what they had to avoid. It was scored once, after its
// duplicate checks, at the analyzer of the last clean sweep.
func TestCorpusHeldOut38(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld38")
}

// TestCorpusHeldOut39 scores the thirty-ninth held-out part, written on
// 2026-11-24 in the seventeenth session by three helpers by domain
// (message brokers and streaming clients; time-series and analytics
// engines; interpreters, language tooling and template engines), with
// part 38's sources added to what they had to avoid. It was scored once,
// after its duplicate checks, at the analyzer of the last clean sweep.
func TestCorpusHeldOut39(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld39")
}

// TestCorpusHeldOut40 scores the fortieth held-out part, written on
// 2026-11-24 in the seventeenth session by three helpers by domain (game
// engines, graphics and media; crawlers, browser automation, mail and
// messaging protocols; security and identity software), with part 39's
// sources added to what they had to avoid. It was scored once, after its
// duplicate checks, at the analyzer of the last clean sweep.
func TestCorpusHeldOut40(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld40")
}

// TestCorpusHeldOut41 scores the forty-first held-out part, written on
// 2026-11-24 in the seventeenth session by three helpers by domain (CI,
// forges and registries; network infrastructure and overlay networks;
// geospatial, image and document processing), with part 40's sources
// added to what they had to avoid. It was scored once, after its
// duplicate checks, at the analyzer of the last clean sweep.
func TestCorpusHeldOut41(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld41")
}

// TestCorpusHeldOut42 scores the forty-second held-out part, written on
// 2026-11-24 in the eighteenth session by helpers by domain (logging,
// tracing and metrics; HTTP servers, websockets and proxies; the third,
// on codecs and compression, found no source that was not already used),
// with part 41's sources added to what they had to avoid. It was scored
// once, after its duplicate checks, at the analyzer of the last clean
// sweep.
func TestCorpusHeldOut42(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld42")
}

// TestCorpusHeldOut43 scores the forty-third held-out part, written on
// 2026-11-24 in the eighteenth session by three helpers by domain
// (caches, key-value stores and Redis clients; event loops and low-level
// networking; cloud SDKs and data-transfer tools), with part 42's sources
// added to what they had to avoid. It was scored once, after its
// duplicate checks, at the analyzer of the last clean sweep.
func TestCorpusHeldOut43(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld43")
}

// TestCorpusHeldOut44 scores the forty-fourth held-out part, written on
// 2026-11-24 in the eighteenth session by three helpers by domain (the Go
// standard library and golang.org/x; distributed SQL databases; ORMs, web
// frameworks and templating), with part 43's sources added to what they
// had to avoid. It was scored once, after its duplicate checks, at the
// analyzer of the last clean sweep.
func TestCorpusHeldOut44(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld44")
}

// TestCorpusHeldOut45 scores the forty-fifth held-out part, written on
// 2026-11-24 in the eighteenth session by three helpers by domain
// (developer tools; service mesh, DNS and service discovery; job queues
// and schedulers), with part 44's sources added to what they had to
// avoid. It was scored once, after its duplicate checks, at the analyzer
// of the last clean sweep.
func TestCorpusHeldOut45(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld45")
}

// TestCorpusHeldOut46 scores the forty-sixth held-out part, written on
// 2026-11-24 in the eighteenth session by three helpers by domain (SSH
// and remote access; secrets, configuration and PKI; finance and
// scientific computing), with part 45's sources added to what they had to
// avoid. It was scored once, after its duplicate checks, at the analyzer
// of the last clean sweep.
func TestCorpusHeldOut46(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld46")
}

// TestCorpusHeldOut47 scores the forty-seventh held-out part, written on
// 2026-11-24 at the end of the eighteenth session by three helpers by
// domain (self-hosted applications; HTTP client and load-testing tools;
// enterprise protocol libraries), with part 46's sources added to what
// they had to avoid. It was scored once, after its duplicate checks, at
// the analyzer of the last clean sweep.
func TestCorpusHeldOut47(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld47")
}

// TestCorpusHeldOut48 scores the forty-eighth held-out part, written on
// 2026-11-24 in the nineteenth session by three helpers by domain
// (container runtimes and build tooling; stream processing, data
// pipelines and metrics agents; microservice frameworks and API
// gateways), from a protocol and an avoid list rebuilt this session from
// the corpora. It was scored once, after its duplicate checks, at the
// analyzer of the last clean sweep.
func TestCorpusHeldOut48(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld48")
}

// TestCorpusHeldOut49 scores the forty-ninth held-out part, written on
// 2026-11-24 in the nineteenth session by three helpers by domain
// (embedded storage engines and key-value stores; VPNs, tunnels and
// overlay networks; template engines, parsers and query languages), with
// part 48's sources added to what they had to avoid. It was scored once,
// after its duplicate checks, at the analyzer of the last clean sweep.
func TestCorpusHeldOut49(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld49")
}

// TestCorpusHeldOut50 scores the fiftieth held-out part, written on
// 2026-11-24 in the nineteenth session by three helpers by domain
// (WebAssembly runtimes and Go tooling; infrastructure-as-code,
// orchestration and consensus; GUI, graphics and cryptography), with
// part 49's sources added to what they had to avoid. It was scored once,
// after its duplicate checks, at the analyzer of the last clean sweep.
func TestCorpusHeldOut50(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld50")
}

// TestCorpusHeldOut51 scores the fifty-first held-out part, written on
// 2026-11-25 in the nineteenth session by three helpers by domain (social
// and content platforms, which ran dry, so general Go projects; columnar
// formats and analytics engines; operating-system interfaces), with part
// 50's sources added to what they had to avoid. One case whose source was
// already in testdata/src/realbugs was dropped before scoring. It was
// scored once, after its duplicate checks, at the analyzer of the last
// clean sweep.
func TestCorpusHeldOut51(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld51")
}

// TestCorpusHeldOut52 scores the fifty-second held-out part, written on
// 2026-11-25 in the nineteenth session by three helpers by domain (LLM
// and AI tooling; chat bots and messaging SDKs; reverse proxies and load
// balancers; all three ran thin, and six cases come from other projects,
// as their headers say), with part 51's sources added to
// what they had to avoid. It was scored once, after its duplicate checks,
// at the analyzer of the last clean sweep.
func TestCorpusHeldOut52(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld52")
}

// TestCorpusHeldOut53 scores the fifty-third held-out part, written on
// 2026-11-25 in the nineteenth session by three helpers split by the
// first letter of the project's owner (a-h, i-q, r-z), with part 52's
// sources added to what they had to avoid. It was scored once, after its
// duplicate checks, at the analyzer of the last clean sweep.
func TestCorpusHeldOut53(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld53")
}

// TestCorpusHeldOut54 scores the fifty-fourth held-out part, written on
// 2026-11-25 in the twentieth session by four helpers split by the first
// letter of the project's owner (a-f, g-m, n-s, t-z), under the protocol
// that marks a hand-off before a deferred Put at the hand-off line. It was
// scored once, after its duplicate checks, at the analyzer of the last
// clean sweep (f509ca2, sweep n12).
func TestCorpusHeldOut54(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld54")
}

// TestCorpusHeldOut55 scores the fifty-fifth held-out part, written on
// 2026-11-25 in the twentieth session by helpers split by the first letter
// of the project's owner (a-e, f-l, m-r, s-z; the f-l writer committed
// nothing by its stop time), with part 54's sources added to what they had
// to avoid. Three cases were dropped before scoring as duplicates of
// earlier parts' bugs (c0b008d). It was scored once, after its duplicate
// checks, at the analyzer of the last clean sweep (03aa8b5, sweep n18).
func TestCorpusHeldOut55(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld55")
}

// TestCorpusHeldOut56 scores the fifty-sixth held-out part, written on
// 2026-11-25 in the twentieth session by four helpers split by the first
// letter of the project's owner (a-d, e-k, l-r, s-z), with part 55's
// sources added to what they had to avoid. Two cases were dropped before
// scoring as duplicates of earlier parts' bugs. It was scored once, after
// its duplicate checks, at the analyzer of the last clean sweep (19164f2,
// sweep n20).
func TestCorpusHeldOut56(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld56")
}

// TestCorpusHeldOut57 scores the fifty-seventh held-out part, written on
// 2026-11-25 in the twentieth session by four helpers split by the first
// letter of the project's owner (a-f, g-m, n-s, t-z), with part 56's
// sources added to what they had to avoid. One case was dropped before
// scoring as a duplicate of an earlier part's bug. It was scored once, after
// its duplicate checks, at the analyzer of the last clean sweep (1d372a8,
// sweep n22).
func TestCorpusHeldOut57(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld57")
}

// TestCorpusHeldOut58 scores the fifty-eighth held-out part, written on
// 2026-11-25 in the twentieth session by four helpers split by the first
// letter of the project's owner (a-d, e-k, l-r, s-z), with part 57's
// sources added to what they had to avoid. One case was dropped before
// scoring as a duplicate of an earlier part's bug. It was scored once, after
// its duplicate checks, at the analyzer of the last clean sweep (5ff10bc,
// sweep n23).
func TestCorpusHeldOut58(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld58")
}

// TestCorpusHeldOut59 scores the fifty-ninth held-out part, written on
// 2026-11-25 in the twenty-first session by four helpers split by the first
// letter of the project's owner (a-f, g-m, n-s, t-z), with part 58's
// sources added to what they had to avoid. No case was dropped. It was
// scored once, after its duplicate checks, at the analyzer of the last
// clean sweep (2ff10f4, sweep n27).
func TestCorpusHeldOut59(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld59")
}

// TestCorpusHeldOut60 scores the sixtieth held-out part, written on
// 2026-11-25 in the twenty-first session by four helpers split by topic
// (pools other than sync.Pool; pooled memory escaping its user; state
// carried to the next user; double Puts, Puts while in use, non-pointer and
// unbounded Puts), with part 59's sources added to what they had to avoid.
// No case was dropped. It was scored once, after its duplicate checks, at
// the analyzer of the last clean sweep (76a7a72, sweep n28).
func TestCorpusHeldOut60(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld60")
}

// TestCorpusHeldOut61 scores the sixty-first held-out part, written on
// 2026-11-25 in the twenty-first session by four helpers split by topic as
// part 60 was, with part 60's sources added to what they had to avoid. One
// case was dropped before scoring as a duplicate of an earlier part's bug.
// It was scored once, after its duplicate checks, at the analyzer of the
// last clean sweep (f60d74d, sweep n30).
func TestCorpusHeldOut61(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld61")
}

// TestCorpusHeldOut62 scores the sixty-second held-out part, written on
// 2026-11-25 in the twenty-first session by four helpers split by topic as
// parts 60 and 61 were, with part 61's sources added to what they had to
// avoid. No case was dropped. It was scored once, after its duplicate
// checks, at the analyzer of the last clean sweep (4e8db54, sweep n32).
func TestCorpusHeldOut62(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld62")
}

// TestCorpusHeldOut63 scores the sixty-third held-out part, written on
// 2026-11-25 in the twenty-first session by four helpers split by topic as
// parts 60 to 62 were, with part 62's sources added to what they had to
// avoid; only one writer committed cases in time. No case was dropped. It
// was scored once, after its duplicate checks, at the analyzer of the last
// clean sweep (ac9ae29, sweep n36).
func TestCorpusHeldOut63(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld63")
}

// TestCorpusHeldOut64 scores the sixty-fourth held-out part, written on
// 2026-11-25 in the twenty-first session by four helpers split by the first
// letter of the project's owner (a-f, g-m, n-s, t-z), with part 63's
// sources added to what they had to avoid. One case was dropped before
// scoring as a duplicate of an earlier part's bug. It was scored once, after
// its duplicate checks, at the analyzer of the last clean sweep (74a1226,
// sweep n37).
func TestCorpusHeldOut64(t *testing.T) {
	if os.Getenv("POOLVET_HELDOUT") != "1" {
		t.Skip("held-out corpus is scored only with POOLVET_HELDOUT=1")
	}
	scoreCorpus(t, "corpusheld64")
}
