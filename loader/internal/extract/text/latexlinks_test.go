package text

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

// TestLaTeXIncludedLinksObeySymlinks: an \input file that is a symbolic
// link is read by loader.symlinks' rules for a listed file: under skip
// (the default) no link is read and each refused one is a warning naming
// it; under follow, a link to a file inside the document's folder is
// read, one pointing outside it or passing through a link to a folder is
// not. os.ReadFile followed every link (a link to a file outside the
// source landed its text under skip).
func TestLaTeXIncludedLinksObeySymlinks(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "paper")
	link := func(target, p string) {
		if err := os.Symlink(target, p); err != nil {
			t.Skipf("symlinks: %v", err)
		}
	}
	writeFile(t, filepath.Join(root, "outside", "secret.tex"), "Outside words never land.\n")
	writeFile(t, filepath.Join(dir, "chapters", "real.tex"), "Inside words by a link.\n")
	writeFile(t, filepath.Join(dir, "plain.tex"), "Plain words always land.\n")
	link("../outside/secret.tex", filepath.Join(dir, "secret.tex"))
	link("chapters/real.tex", filepath.Join(dir, "inside.tex"))
	link("chapters", filepath.Join(dir, "viadir"))
	main := filepath.Join(dir, "main.tex")
	writeFile(t, main, "\\documentclass{article}\n\\begin{document}\nMain words.\n\\input{plain}\n\\input{secret}\n\\input{inside}\n\\include{viadir/real}\n\\end{document}\n")
	info, err := detect.Detect(main)
	if err != nil || info.Type != detect.LaTeX {
		t.Fatalf("detected %+v %v", info, err)
	}
	for _, c := range []struct {
		follow  bool
		read    []string
		refused map[string]string // \input name -> its warning's reason
	}{
		{false, []string{"Plain words"}, map[string]string{
			"secret": "a symbolic link (loader.symlinks: skip)", "inside": "a symbolic link (loader.symlinks: skip)",
			"viadir/real": "a symbolic link (loader.symlinks: skip)"}},
		{true, []string{"Plain words", "Inside words"}, map[string]string{
			"secret": "the link points outside the document's folder", "viadir/real": "links to folders are not followed"}},
	} {
		res, err := Extract(context.Background(), main, info, document.Options{FollowSymlinks: c.follow})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Pages[0].Text
		for _, w := range c.read {
			if !strings.Contains(text, w) {
				t.Errorf("follow=%v: %q not read: %q", c.follow, w, text)
			}
		}
		if strings.Contains(text, "Outside words") || !c.follow && strings.Contains(text, "Inside words") {
			t.Errorf("follow=%v: a link was read against loader.symlinks: %q", c.follow, text)
		}
		for name, why := range c.refused {
			found := false
			for _, w := range res.Warnings {
				found = found || strings.Contains(w, "{"+name+"} not followed: "+why)
			}
			if !found {
				t.Errorf("follow=%v: no warning that {%s} was refused (%s): %q", c.follow, name, why, res.Warnings)
			}
		}
		if len(res.Warnings) != len(c.refused) {
			t.Errorf("follow=%v: warnings %q, want %d", c.follow, res.Warnings, len(c.refused))
		}
	}
}
