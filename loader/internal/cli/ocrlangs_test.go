package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingOCRLanguageWarned: an ocr.languages entry with no model
// installed is a warning at its project.yaml line when docket load runs
// (also a shard's, docket load --plan DIR --shard K) and in docket debug; Tesseract loaded the others and said nothing
// docket showed, so scans in that language were read without it.
func TestMissingOCRLanguageWarned(t *testing.T) {
	if g, _ := filepath.Glob("/usr/share/tesseract-ocr/*/tessdata/eng.traineddata"); len(g) == 0 {
		t.Skip("Debian's tesseract-ocr-eng is not installed")
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "inbox"), 0o755)
	os.WriteFile(filepath.Join(dir, "inbox", "a.txt"), []byte("Some words to load.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\nocr:\n  languages: [eng, zzqx]\n"), 0o644)
	want := filepath.Join(dir, "project.yaml") + ":7: ocr.languages zzqx: no model installed"
	plan := filepath.Join(t.TempDir(), "plan")
	must(t, dir, "plan", "--shards", "1", "--out", plan)
	for _, args := range [][]string{{"load", "--quiet"}, {"debug"}, {"load", "--plan", plan, "--shard", "0"}} {
		out, _ := run(t, dir, args...)
		if !strings.Contains(out, want) || !strings.Contains(out, "tesseract-ocr-zzqx") {
			t.Errorf("docket %v: want a warning %q naming the package, got:\n%s", args, want, out)
		}
		if args[0] == "debug" && !strings.Contains(out, "loads with eng (of eng+zzqx)") {
			t.Errorf("docket debug: want Tesseract's line to say it loaded eng only, got:\n%s", out)
		}
	}
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\nocr:\n  languages: [eng]\n"), 0o644)
	if out := must(t, dir, "load", "--quiet"); strings.Contains(out, "ocr.languages") {
		t.Errorf("eng is installed: %s", out)
	}
}
