package pooldebug

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		in      string
		want    Settings
		wantErr string
	}{
		{"", Settings{}, ""},
		{"doubleput=1", Settings{DoublePut: true}, ""},
		{"doubleput=1,poison=1,leak=128", Settings{DoublePut: true, Poison: true, Leak: 128}, ""},
		{" leak=1 , poison=0", Settings{Leak: 1}, ""},
		{"leak=-1", Settings{}, "want leak=N"},
		{"leak=x,doubleput=1", Settings{DoublePut: true}, "want leak=N"},
		{"bogus=1", Settings{}, "unknown setting"},
		// A key without a value is named as unknown if it is (an outside
		// test got "want bogus=N", as if bogus were a setting).
		{"bogus", Settings{}, `unknown setting "bogus"`},
		{"doubleput", Settings{}, "want doubleput=N"},
	} {
		got, err := Parse(tt.in)
		got.raw = ""
		if *got != tt.want {
			t.Errorf("Parse(%q) = %+v; want %+v", tt.in, *got, tt.want)
		}
		if (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("Parse(%q) error = %v; want one containing %q", tt.in, err, tt.wantErr)
		}
	}
}

func TestReportDefault(t *testing.T) {
	defer func() {
		if r := recover(); r != "x: double Put of T" {
			t.Fatalf("Report(double Put) panicked with %v; want the message", r)
		}
	}()
	Report(KindDoublePut, "T", "x: double Put of T", "")
}
