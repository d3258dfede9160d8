package loader_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/worker"
)

// recordAndRewrite is the worker hook of envWorkerPaths and envRewrite.
func recordAndRewrite(r worker.Request) {
	if log := os.Getenv(envWorkerPaths); log != "" {
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%s\t%s\n", r.Name, r.Path)
			f.Close()
		}
	}
	if spec := strings.SplitN(os.Getenv(envRewrite), "=", 3); len(spec) == 3 && r.Name == spec[0] {
		done := spec[2] + ".rewritten"
		if _, err := os.Stat(done); err != nil {
			b, _ := os.ReadFile(spec[1])
			os.WriteFile(spec[2], b, 0o644)
			os.WriteFile(done, nil, 0o644)
		}
	}
}

// bigPDF writes src padded past the loader's in-memory size (256 KiB)
// with comment lines after its end, and the end (startxref, %%EOF)
// repeated, so that it stays a valid PDF with the same text.
func bigPDF(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.LastIndex(b, []byte("startxref"))
	if i < 0 {
		t.Fatalf("%s: no startxref", src)
	}
	tail := append([]byte(nil), b[i:]...)
	out := append([]byte(nil), b...)
	for len(out) < 300<<10 {
		out = append(out, "% padding padding padding padding padding padding padding padding\n"...)
	}
	out = append(out, tail...)
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func fileHash(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// workerPaths reads envWorkerPaths' log: document name -> paths given.
func workerPaths(t *testing.T, log string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		name, path, _ := strings.Cut(l, "\t")
		out[name] = append(out[name], path)
	}
	return out
}

// TestPDFsAreReadInPlace: a PDF's worker reads the file itself (small or
// big), with no private copy written by the loader, and what lands is
// the file's text under the file's hash; so does a Markdown file's.
func TestPDFsAreReadInPlace(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n  timeout: 60s\n"), 0o644)
	src := "../../../examples/inbox/remote-work-policy.pdf"
	b, _ := os.ReadFile(src)
	os.WriteFile(filepath.Join(inbox, "small.pdf"), b, 0o644)
	bigPDF(t, src, filepath.Join(inbox, "big.pdf"))
	os.WriteFile(filepath.Join(inbox, "notes.md"), []byte("# Notes\n\nSome text.\n"), 0o644)
	os.WriteFile(filepath.Join(inbox, "rows.csv"), []byte("a,b\n1,2\n"), 0o644)
	os.WriteFile(filepath.Join(inbox, "paper.tex"), []byte("\\section{Intro}\nSome text.\n"), 0o644)
	log := filepath.Join(dir, "paths.log")
	mustLoad(t, dir, envWorkerPaths+"="+log)

	paths := workerPaths(t, log)
	for _, name := range []string{"notes.md", "rows.csv"} {
		if got, want := paths[name], filepath.Join(inbox, name); len(got) != 1 || got[0] != want {
			t.Errorf("%s: the worker was given %v, want the file itself (%s)", name, got, want)
		}
	}
	for _, name := range []string{"small.pdf", "big.pdf"} {
		want := filepath.Join(inbox, name)
		if got := paths[name]; len(got) != 1 || got[0] != want {
			t.Errorf("%s: the worker was given %v, want the file itself (%s)", name, got, want)
		}
		q := fmt.Sprintf(`select count(*) from raw.documents d join staging.pages p using (source_hash) where d.rel_path = '%s' and d.source_hash = '%s' and p.text like '%%emote%%'`, name, fileHash(t, filepath.Join(inbox, name)))
		if n := count(t, dir, q); n == 0 {
			t.Errorf("%s: no page of its text landed under its hash", name)
		}
	}
}

// TestLaTeXInputFollowedByLoad: a loaded .tex file's \input and \include
// land their text (in a subfolder too), a file above the source's folder
// is not read; the worker read the .tex from a private copy, beside which
// there was nothing, so every \input was "not found" in a real load.
func TestLaTeXInputFollowedByLoad(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(filepath.Join(inbox, "paper", "chapters"), 0o755)
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n  timeout: 60s\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.tex"), []byte("Outside words never land.\n"), 0o644)
	os.WriteFile(filepath.Join(inbox, "paper", "chapters", "intro.tex"), []byte("\\section{Scope}\nThe scope covers the north berth.\n"), 0o644)
	os.WriteFile(filepath.Join(inbox, "paper", "results.tex"), []byte("Results show more traffic.\n"), 0o644)
	main := "\\documentclass{article}\n\\begin{document}\n\\section{Introduction}\nThe harbour report.\n\\input{chapters/intro}\n\\include{results}\n\\input{../../secret}\n\\end{document}\n"
	os.WriteFile(filepath.Join(inbox, "paper", "main.tex"), []byte(main), 0o644)
	// past the loader's in-memory size too (see bigPDF)
	os.WriteFile(filepath.Join(inbox, "paper", "big.tex"), []byte(main+strings.Repeat("% padding padding padding padding\n", 10000)), 0o644)
	mustLoad(t, dir)
	for _, name := range []string{"paper/main.tex", "paper/big.tex"} {
		text := func(like string) int {
			return count(t, dir, fmt.Sprintf(`select count(*) from raw.documents d join staging.pages p using (source_hash) where d.rel_path = '%s' and p.text like '%%%s%%'`, name, like))
		}
		for _, want := range []string{"The harbour report.", "The scope covers the north berth.", "Results show more traffic."} {
			if text(want) != 1 {
				t.Errorf("%s: %q did not land", name, want)
			}
		}
		if text("Outside words") != 0 {
			t.Errorf("%s: a file above the source's folder was read", name)
		}
	}
}

// TestPDFChangedUnderItsWorker: a PDF rewritten while its worker reads it
// in place is not landed with the new bytes under the old hash: a small
// one is extracted again from the bytes hashed, a big one left to the
// next load, which lands the new content.
func TestPDFChangedUnderItsWorker(t *testing.T) {
	for _, big := range []bool{false, true} {
		dir := t.TempDir()
		inbox := filepath.Join(dir, "inbox")
		os.MkdirAll(inbox, 0o755)
		os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n  timeout: 60s\n"), 0o644)
		orig, other := "../../../examples/inbox/remote-work-policy.pdf", "../../../examples/inbox/service-agreement-scan.pdf"
		doc := filepath.Join(inbox, "doc.pdf")
		if big {
			bigPDF(t, orig, doc)
		} else {
			b, _ := os.ReadFile(orig)
			os.WriteFile(doc, b, 0o644)
		}
		before := fileHash(t, doc)
		otherFile := filepath.Join(dir, "other.pdf")
		bigPDF(t, other, otherFile)
		log := filepath.Join(dir, "paths.log")
		out := mustLoad(t, dir, envWorkerPaths+"="+log, envRewrite+"=doc.pdf="+otherFile+"="+doc)
		after := fileHash(t, doc)
		if before == after {
			t.Fatal("the hook did not rewrite the file")
		}
		textOf := func(hash string) int {
			return count(t, dir, fmt.Sprintf(`select count(*) from raw.documents d join staging.pages p using (source_hash) where d.rel_path = 'doc.pdf' and d.source_hash = '%s' and p.text like '%%emote%%'`, hash))
		}
		if big {
			if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'doc.pdf' and status = 'landed'`); n != 0 {
				t.Errorf("big: landed although its bytes changed under the worker\n%s", out)
			}
		} else if textOf(before) == 0 {
			t.Errorf("small: the text of the bytes hashed did not land under their hash\n%s", out)
		}
		if n := count(t, dir, fmt.Sprintf(`select count(*) from staging.pages where source_hash = '%s'`, after)); n != 0 {
			t.Errorf("big=%v: pages under the new bytes' hash after the first load", big)
		}
		// the next load lands what the file holds now
		mustLoad(t, dir)
		if n := count(t, dir, fmt.Sprintf(`select count(*) from raw.documents where rel_path = 'doc.pdf' and source_hash = '%s' and status = 'landed'`, after)); n != 1 {
			t.Errorf("big=%v: the next load did not land the new bytes", big)
		}
		if textOf(after) != 0 {
			t.Errorf("big=%v: the new bytes carry the old text", big)
		}
	}
}
