package project

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseDefaultsAndPaths(t *testing.T) {
	p, err := Parse("/proj/project.yaml", []byte("version: 1\nsources:\n  - {name: inbox, path: in}\nloader:\n  timeout: 90s\n  max_file_size: 64MB\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Warehouse != "/proj/warehouse.duckdb" || p.Sources[0].Path != "/proj/in" {
		t.Errorf("paths not resolved against the project folder: %s %s", p.Warehouse, p.Sources[0].Path)
	}
	if p.Loader.Timeout.Duration != 90*time.Second || p.Loader.MaxFileSize != 64<<20 {
		t.Errorf("loader settings: %+v", p.Loader)
	}
	if p.Loader.MemoryLimit != DefaultLoadMemory {
		t.Errorf("loader.memory_limit default: %d, want %d", p.Loader.MemoryLimit, DefaultLoadMemory)
	}
	if q, err := Parse("/proj/project.yaml", []byte("version: 1\nloader:\n  memory_limit: 512MB\n")); err != nil || q.Loader.MemoryLimit != 512<<20 {
		t.Errorf("loader.memory_limit: 512MB: %v %v", q, err)
	}
	if p.Loader.Workers < 1 || p.OCR.DPI != 300 || p.OCR.Languages[0] != "eng" || p.Embedding.Provider != "hash" {
		t.Errorf("defaults missing: %+v %+v %+v", p.Loader, p.OCR, p.Embedding)
	}
}

func TestParseErrorsNameFileAndLine(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"version: 1\nsources: []\nlaoder:\n  workers: 2\n", `/p/project.yaml:3: unknown key "laoder"`},
		{"version: 1\nloader:\n  workerz: 2\n", `/p/project.yaml:3: unknown key "workerz"`},
		{"version: 2\n", "version must be 1"},
		{"version: 1\nloader:\n  timeout: soon\n", `/p/project.yaml:3: "soon" is not a duration`},
		{"version: 1\nsources:\n  - {name: a, path: x}\n  - {name: a, path: y}\n", `source "a" is declared twice`},
		{"version: 1\nretrieval: {vector_index: faiss}\n", "vector_index must be exact, hnsw or auto"},
		{"version: 1\nembedding:\n  provider: openai\n  modell: x\n", "project.yaml"},
		// issue 18: bad values are errors at their line, not defaults.
		{"version: 1\nloader:\n  workers: 2\n  timeout: -1s\n", `/p/project.yaml:4: loader.timeout must be a positive duration`},
		{"version: 1\nloader:\n  timeout: 0s\n", `/p/project.yaml:3: loader.timeout must be a positive duration`},
		{"version: 1\nloader:\n  workers: -3\n", `/p/project.yaml:3: loader.workers must be 0 (one per core) or more`},
		{"version: 1\nloader:\n  workers: 100000\n", `/p/project.yaml:3: loader.workers is 100000, more than 4 per core`},
		{"version: 1\nloader:\n  max_pages: 0\n", `/p/project.yaml:3: loader.max_pages must be at least 1`},
		{"version: 1\nloader:\n  memory_limit: 0\n", `/p/project.yaml:3: loader.memory_limit must be a positive size`},
		{"version: 1\nbuild:\n  memory_limit: 0\n", `/p/project.yaml:3: build.memory_limit must be a positive size`},
		{"version: 1\nbuild:\n  memory_limit: 99999999TB\n", `/p/project.yaml:3: "99999999TB" is too large a size`},
		{"version: 1\nloader:\n  symlinks: maybe\n", `/p/project.yaml:3: loader.symlinks must be skip or follow`},
		{"version: 1\nloader:\n  workers: 2\n  verify: sha256\n", `/p/project.yaml:4: loader.verify must be stat or hash`},
		{"version: 1\nsources:\n  - {name: a, path: x}\n  - {name: a/b, path: y}\n", `/p/project.yaml:4: source name "a/b" may not contain '/'`},
		{"version: 1\nsources:\n  - {name: a, path: x}\n  - {name: a, path: y}\n", `/p/project.yaml:4: source "a" is declared twice`},
	}
	for _, c := range cases {
		_, err := Parse("/p/project.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: want error containing %q, got %v", c.yaml, c.want, err)
		}
	}
}

func TestShippedProjectParses(t *testing.T) {
	if _, err := Load("../../.."); err != nil {
		t.Fatalf("the shipped project.yaml: %v", err)
	}
}

func TestFindWalksUp(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, FileName), []byte("version: 1\n"), 0o644)
	sub := filepath.Join(dir, "a", "b")
	os.MkdirAll(sub, 0o755)
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(sub)
	got, err := Find("")
	if err != nil || got != dir {
		t.Fatalf("Find from %s = %s, %v; want %s", sub, got, err, dir)
	}
	if _, err := Find(filepath.Join(dir, "a")); err == nil {
		t.Error("Find with an explicit folder without project.yaml should fail")
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]Size{"1024": 1024, "64MB": 64 << 20, "2GiB": 2 << 30, "1.5k": 1536} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v", in, got, err)
		}
	}
}

// TestMemoryLimitOverMachineWarnedAtLine: a memory limit larger than the
// machine's memory, which DuckDB takes as written (no limit at all: it
// would run the machine out of memory instead of spilling), is a warning
// at its file:line saying what is used instead: 999TB was passed on
// unchecked.
func TestMemoryLimitOverMachineWarnedAtLine(t *testing.T) {
	machine := MachineMemory()
	if machine <= 0 {
		t.Skip("the machine's memory is unknown here")
	}
	p, err := Parse("/p/project.yaml", []byte("version: 1\nloader:\n  workers: 1\n  memory_limit: 999TB\nbuild:\n  memory_limit: 999TB\n"))
	if err != nil {
		t.Fatal(err)
	}
	used := machine / 5 * 4
	want := Warning{File: "/p/project.yaml", Line: 6, Msg: "build.memory_limit 999.0 TiB is more than this machine's memory (" + machine.human() +
		"); the model commands use " + used.human() + " (80 % of it, DuckDB's own default)"}
	if !slices.Contains(p.Warnings, want) || p.Build.MemoryLimit != used {
		t.Errorf("build: %d, warnings %v; want %d and %v", p.Build.MemoryLimit, p.Warnings, used, want)
	}
	if limit, warn := p.Loader.DuckDBMemory(); limit != used || !strings.HasPrefix(warn, "/p/project.yaml:4: loader.memory_limit 999.0 TiB is more than this machine's memory") {
		t.Errorf("loader: %d, %q; want %d and a warning at /p/project.yaml:4", limit, warn, used)
	}
}

// TestMemoryLimitTooSmallWarnedAtLine: a memory limit DuckDB is not given
// as written (under MinDuckDBMemory, raised to it) is a warning naming the
// file and line: build.memory_limit's was raised without a word, and
// loader.memory_limit's warning named no place.
func TestMemoryLimitTooSmallWarnedAtLine(t *testing.T) {
	p, err := Parse("/p/project.yaml", []byte("version: 1\nloader:\n  workers: 1\n  memory_limit: 16MB\nbuild:\n  memory_limit: 10MB\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Warning{File: "/p/project.yaml", Line: 6, Msg: "build.memory_limit 10MiB is too small for DuckDB; the model commands use 64MiB"}
	if !slices.Contains(p.Warnings, want) {
		t.Errorf("warnings %v, want %v", p.Warnings, want)
	}
	if limit, warn := p.Loader.DuckDBMemory(); limit != MinDuckDBMemory || !strings.HasPrefix(warn, "/p/project.yaml:4: loader.memory_limit 16MiB is too small") {
		t.Errorf("loader: %d, %q; want 64MiB and a warning at /p/project.yaml:4", limit, warn)
	}
	q, err := Parse("/p/project.yaml", []byte("version: 1\nloader:\n  memory_limit: 64MB\nbuild:\n  memory_limit: 64MB\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, warn := q.Loader.DuckDBMemory(); len(q.Warnings) != 0 || warn != "" {
		t.Errorf("64MB is applied as written: warnings %v, %q", q.Warnings, warn)
	}
}

// OCR settings out of their range are errors at their line, and an
// explicit 0 confidence is applied, not replaced by the default: before,
// ocr.dpi: 3 rendered pages at 3 dpi, min_word_confidence: 160 left every
// word out and review_below: -70 never flagged a page, all without a
// word, and min_word_confidence: 0 (keep every word) silently became 60.
func TestOCRSettingsCheckedAtLine(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"version: 1\nocr:\n  dpi: 3\n", `/p/project.yaml:3: ocr.dpi must be from 70 to 1200, got 3`},
		{"version: 1\nocr:\n  dpi: 30000\n", `/p/project.yaml:3: ocr.dpi must be from 70 to 1200, got 30000`},
		{"version: 1\nocr:\n  dpi: 0\n", `/p/project.yaml:3: ocr.dpi must be from 70 to 1200, got 0`},
		{"version: 1\nocr:\n  min_word_confidence: 160\n", `/p/project.yaml:3: ocr.min_word_confidence must be from 0 to 100, got 160`},
		{"version: 1\nocr:\n  dpi: 300\n  review_below: -70\n", `/p/project.yaml:4: ocr.review_below must be from 0 to 100, got -70`},
	}
	for _, c := range cases {
		_, err := Parse("/p/project.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: want error containing %q, got %v", c.yaml, c.want, err)
		}
	}
	p, err := Parse("/p/project.yaml", []byte("version: 1\nocr:\n  min_word_confidence: 0\n  review_below: 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.OCR.MinWordConfidence != 0 || p.OCR.ReviewBelow != 0 {
		t.Errorf("explicit 0: min_word_confidence %v, review_below %v", p.OCR.MinWordConfidence, p.OCR.ReviewBelow)
	}
	p, err = Parse("/p/project.yaml", []byte("version: 1\n"))
	if err != nil || p.OCR.MinWordConfidence != 60 || p.OCR.ReviewBelow != 70 || p.OCR.DPI != 300 {
		t.Errorf("defaults: %+v %v", p.OCR, err)
	}
}

// Settings of the HTTP embedding providers under the built-in hash
// provider, which makes no request, are warnings at their line: before,
// base_url, api_key_env, send_dimensions, timeout and max_retries were
// taken and not applied, without a word.
func TestHashProviderWarnsHTTPSettings(t *testing.T) {
	p, err := Parse("/p/project.yaml", []byte("version: 1\nembedding:\n  provider: hash\n  base_url: http://localhost:8080\n  api_key_env: EMBED_KEY\n  send_dimensions: true\n  max_retries: 5\n  timeout: 3s\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range p.Warnings {
		got = append(got, w.String())
	}
	for _, want := range []string{"/p/project.yaml:4: embedding.base_url", "/p/project.yaml:5: embedding.api_key_env", "/p/project.yaml:6: embedding.send_dimensions",
		"/p/project.yaml:7: embedding.max_retries", "/p/project.yaml:8: embedding.timeout"} {
		found := false
		for _, g := range got {
			found = found || strings.HasPrefix(g, want) && strings.Contains(g, "not applied")
		}
		if !found {
			t.Errorf("no warning %q...not applied in %q", want, got)
		}
	}
	p, err = Parse("/p/project.yaml", []byte("version: 1\nembedding:\n  provider: openai\n  model: m\n  base_url: http://localhost:8080\n  api_key_env: EMBED_KEY\n"))
	if err != nil || len(p.Warnings) != 0 {
		t.Errorf("openai: warnings %v, err %v", p.Warnings, err)
	}
}
