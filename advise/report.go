package advise

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteJSON writes the report as one JSON object: {"sites":[...]}.
func (r *Report) WriteJSON(w io.Writer) error {
	sites := r.Sites
	if sites == nil {
		sites = []Site{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Sites []Site `json:"sites"`
	}{sites})
}

// WriteText writes the report for a person at a terminal: a table of the
// top sites, then the suggested code for the top sites to pool.
func (r *Report) WriteText(w io.Writer, top, code int) error {
	fmt.Fprintf(w, "%s allocated in the profile; %.0f%% of it outside your packages.\n", fmtBytes(float64(r.Total)), 100*r.Outer)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SITE\tTYPE\tSHARE\tLIVE\tVERDICT\tREASON")
	for i, s := range r.Sites {
		if i == top {
			fmt.Fprintf(tw, "… %d more sites (-n to show them)\t\t\t\t\t\n", len(r.Sites)-top)
			break
		}
		typ := s.Type
		if typ == "" {
			typ = "?"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f%%\t%.0f%%\t%s\t%s\n", s.Pos, typ, 100*s.Share, 100*s.LiveRatio, s.Verdict, oneLine(s.Reason, 110))
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%s\n", r.Model)
	shown := 0
	for _, s := range r.Sites {
		if shown == code {
			break
		}
		if s.Suggestion == "" || (s.Verdict != VerdictPool && s.Verdict != VerdictBytePool) {
			continue
		}
		shown++
		fmt.Fprintf(w, "\n== %s  %s  %s: %s\n%s\n", s.Pos, s.Function, s.Verdict, s.Estimate, s.Suggestion)
	}
	if shown == 0 {
		fmt.Fprintln(w, "\nno site is worth pooling.")
	}
	return nil
}

func oneLine(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
