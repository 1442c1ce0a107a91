package report

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestHTMLRendersInChromium renders the sample report with headless
// Chromium (testdata/render.sh) and checks the screenshot: the page is
// drawn, the recommended strategy's bars are in the highlight colour and
// the error bars are drawn. It runs only where /usr/bin/chromium exists
// (Debian: apt-get install -y chromium) and not with -short. Set
// POOLBENCH_SCREENSHOT=file.png to keep the screenshot and look at it.
func TestHTMLRendersInChromium(t *testing.T) {
	const chromium = "/usr/bin/chromium"
	if _, err := os.Stat(chromium); err != nil {
		t.Skip("no " + chromium)
	}
	if testing.Short() {
		t.Skip("-short")
	}
	dir := t.TempDir()
	page, shot := filepath.Join(dir, "report.html"), filepath.Join(dir, "report.png")
	if keep := os.Getenv("POOLBENCH_SCREENSHOT"); keep != "" {
		shot, _ = filepath.Abs(keep)
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("testdata/render.sh", page, shot, "1200x2600").CombinedOutput()
	if err != nil {
		t.Fatalf("render.sh: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if got := img.Bounds().Size(); got != (image.Point{1200, 2600}) {
		t.Errorf("screenshot is %v; want 1200x2600", got)
	}
	var inked, highlight, whisker int
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			r, g, b = r>>8, g>>8, b>>8
			if r < 240 || g < 240 || b < 240 {
				inked++
			}
			if near(r, 0x2f) && near(g, 0x9e) && near(b, 0x44) {
				highlight++
			}
			if r < 0x30 && g < 0x30 && b < 0x30 {
				whisker++
			}
		}
	}
	total := bd.Dx() * bd.Dy()
	t.Logf("inked %d/%d pixels, %d highlight, %d near-black", inked, total, highlight, whisker)
	if inked < total/50 {
		t.Errorf("only %d of %d pixels are not white: the page did not render", inked, total)
	}
	// 7 charts, 2 of them with a highlighted bar of at least 15x20 pixels
	// (the recommended strategy's: pool in logline; bloat says don't pool
	// and highlights alloc).
	if highlight < 7*15*20 {
		t.Errorf("%d pixels in the highlight colour; want the recommended strategy's bar in each of the 7 charts", highlight)
	}
	if whisker < 2000 {
		t.Errorf("%d near-black pixels; want text and error bars", whisker)
	}
}

func near(c, want uint32) bool { return c+12 >= want && c <= want+12 }
