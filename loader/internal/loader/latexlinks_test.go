package loader_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestLaTeXIncludedLinksFollowLoaderSetting: in a load, a .tex file's
// \input of a symbolic link obeys loader.symlinks as the listing does:
// under skip (the default) neither a link inside the source nor one
// pointing out of it is read, each a warning naming it; under follow the
// link to a file in the document's folder lands its text. The worker read
// every link (a file outside the source landed its text under skip).
func TestLaTeXIncludedLinksFollowLoaderSetting(t *testing.T) {
	for _, follow := range []bool{false, true} {
		dir := t.TempDir()
		inbox := filepath.Join(dir, "inbox")
		os.MkdirAll(filepath.Join(inbox, "paper", "chapters"), 0o755)
		yaml := "version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n  timeout: 60s\n"
		if follow {
			yaml += "  symlinks: follow\n"
		}
		os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644)
		os.WriteFile(filepath.Join(dir, "secret.tex"), []byte("Outside words never land.\n"), 0o644)
		os.WriteFile(filepath.Join(inbox, "paper", "chapters", "real.tex"), []byte("Inside words by a link.\n"), 0o644)
		if err := os.Symlink("../../secret.tex", filepath.Join(inbox, "paper", "secret.tex")); err != nil {
			t.Skipf("symlinks: %v", err)
		}
		os.Symlink("chapters/real.tex", filepath.Join(inbox, "paper", "inside.tex"))
		main := "\\documentclass{article}\n\\begin{document}\nThe harbour report.\n\\input{secret}\n\\input{inside}\n\\end{document}\n"
		os.WriteFile(filepath.Join(inbox, "paper", "main.tex"), []byte(main), 0o644)
		mustLoad(t, dir)
		text := func(like string) int {
			return count(t, dir, fmt.Sprintf(`select count(*) from raw.documents d join staging.pages p using (source_hash) where d.rel_path = 'paper/main.tex' and p.text like '%%%s%%'`, like))
		}
		warned := func(name string) int {
			return count(t, dir, `select count(*) from raw.documents where rel_path = 'paper/main.tex' and list_contains(warnings, '\input{`+name+`} not followed: `+
				map[bool]string{false: "a symbolic link (loader.symlinks: skip)", true: "the link points outside the document''s folder"}[follow && name == "secret"]+`')`)
		}
		if text("The harbour report.") != 1 || text("Outside words") != 0 || warned("secret") != 1 {
			t.Errorf("follow=%v: the link out of the source was read or not warned about", follow)
		}
		if follow && text("Inside words") != 1 {
			t.Errorf("follow: the link to a file beside the document was not read")
		}
		if !follow && (text("Inside words") != 0 || warned("inside") != 1) {
			t.Errorf("skip: the link to a file beside the document was read or not warned about")
		}
	}
}
