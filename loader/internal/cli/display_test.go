package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAttachmentDisplayPath: an attachment is shown as
// "mail.eml › note.txt" by docket search (text and --json) and on the docs
// site; a top-level file named "mail.eml#note.txt" (how the attachment's
// rel_path is stored) or "mail.eml › note.txt" is shown otherwise.
func TestAttachmentDisplayPath(t *testing.T) {
	dir, inbox := healthProject(t)
	body := func(k int) string { return "quokka ledger " + strings.Join(prose(k, 12), "\n") }
	eml := "From: a@example.com\r\nTo: b@example.com\r\nSubject: ledger\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/mixed; boundary=XX\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nsee the attached note\r\n" +
		"--XX\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=\"note.txt\"\r\n\r\n" + body(1) + "\r\n--XX--\r\n"
	os.WriteFile(filepath.Join(inbox, "mail.eml"), []byte(eml), 0o644)
	os.WriteFile(filepath.Join(inbox, "mail.eml#note.txt"), []byte(body(2)), 0o644)
	os.WriteFile(filepath.Join(inbox, "mail.eml › note.txt"), []byte(body(3)), 0o644)
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")
	if got := query(t, dir, "select count(*) from raw.documents where parent_doc_id is not null and rel_path = 'mail.eml#note.txt'"); got[0] != "1" {
		t.Fatalf("the attachment did not land as mail.eml#note.txt: %v", got)
	}

	out := must(t, dir, "search", "quokka", "--mode", "bm25", "-k", "10")
	var shown []string
	for _, m := range regexp.MustCompile(`(?m)^\s*\d+\. [0-9.]+  (.*?)  page \d+`).FindAllStringSubmatch(out, -1) {
		shown = append(shown, m[1])
	}
	want := map[string]bool{"mail.eml › note.txt": true, "mail.eml#note.txt": true, `mail.eml \u203a note.txt`: true}
	if len(shown) != 3 || !want[shown[0]] || !want[shown[1]] || !want[shown[2]] || shown[0] == shown[1] || shown[1] == shown[2] || shown[0] == shown[2] {
		t.Fatalf("want the attachment, and the two top-level files named like it, each shown differently; got %q:\n%s", shown, out)
	}

	var res struct {
		Hits []struct {
			Path        string `json:"path"`
			DisplayPath string `json:"display_path"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(must(t, dir, "search", "quokka", "--mode", "bm25", "--json")), &res); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, h := range res.Hits {
		if h.DisplayPath == "mail.eml › note.txt" && h.Path == "mail.eml#note.txt" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("want one hit with path mail.eml#note.txt displayed as mail.eml › note.txt, got %+v", res.Hits)
	}

	must(t, dir, "docs", "generate")
	site, err := os.ReadFile(filepath.Join(dir, "target", "docs", "documents.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{">mail.eml › note.txt</a>", ">mail.eml#note.txt</a>", `>mail.eml \u203a note.txt</a>`} {
		if strings.Count(string(site), w) != 1 {
			t.Errorf("documents.html should list %q once", w)
		}
	}
}
