package loader_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttachedLaTeXIncludesMissing: a LaTeX document that came as an
// e-mail attachment has no folder of its own, so the files it \input s
// cannot be read: it lands flagged includes_missing, naming them. On the
// old code its worker read the private copy's folder, said "\input{ch}
// not found in the document's folder" in a warning and flagged nothing.
// A main.tex loaded from its folder reads its chapter and is not flagged.
func TestAttachedLaTeXIncludesMissing(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	tex := "\\documentclass{article}\n\\begin{document}\nThe harbour report.\n\\input{ch}\n\\end{document}\n"
	eml := "MIME-Version: 1.0\r\nFrom: a@example.org\r\nSubject: Report\r\nContent-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nThe report is attached.\r\n--B\r\n" +
		"Content-Type: text/x-tex; name=\"main.tex\"\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename=\"main.tex\"\r\n\r\n" +
		base64.StdEncoding.EncodeToString([]byte(tex)) + "\r\n--B--\r\n"
	for rel, body := range map[string]string{"mail.eml": eml, "paper/main.tex": tex, "paper/ch.tex": "Alpha cranes were idle.\n"} {
		os.MkdirAll(filepath.Dir(filepath.Join(inbox, rel)), 0o755)
		if err := os.WriteFile(filepath.Join(inbox, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n"), 0o644)
	l := newInProcess(t, dir)
	l.load(false)
	rows, err := l.db.SQL().Query(`select d.rel_path, coalesce(r.message, ''), p.text from raw.documents d join staging.pages p using (source_hash)
		left join staging.reviews r on r.source_hash = d.source_hash and r.reason_code = 'includes_missing'
		where d.rel_path like '%main.tex' order by d.rel_path`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string][2]string{}
	for rows.Next() {
		var rel, msg, text string
		rows.Scan(&rel, &msg, &text)
		got[rel] = [2]string{msg, text}
	}
	if len(got) != 2 {
		t.Fatalf("main.tex documents %v, want the attachment's and paper/main.tex", got)
	}
	for rel, g := range got {
		attached := strings.Contains(rel, "mail.eml")
		if !strings.Contains(g[1], "The harbour report.") || strings.Contains(g[1], "Alpha cranes") == attached {
			t.Errorf("%s: text %q", rel, g[1])
		}
		if attached && !strings.Contains(g[0], "includes other files (\\input/\\include: ch) but came without its folder") {
			t.Errorf("%s: includes_missing review %q", rel, g[0])
		}
		if !attached && g[0] != "" {
			t.Errorf("%s, loaded from its folder, is flagged includes_missing: %q", rel, g[0])
		}
	}
}
