package cli_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAttachmentWithLongExtension: an attachment whose name has a
// 300-character extension lands like any other (it was quarantined
// internal, "cannot stage attachment", and retried by every load: the
// staged copy's name took the extension), and a second load leaves it
// alone.
func TestAttachmentWithLongExtension(t *testing.T) {
	dir, inbox := healthProject(t)
	ext := strings.Repeat("x", 300)
	eml := "From: a@example.com\r\nTo: b@example.com\r\nSubject: notes\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/mixed; boundary=XX\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nnotes attached\r\n" +
		"--XX\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=\"notes." + ext + "\"\r\n\r\n" +
		strings.Join(prose(4, 12), "\n") + "\r\n--XX--\r\n"
	os.WriteFile(filepath.Join(inbox, "mail.eml"), []byte(eml), 0o644)
	must(t, dir, "load", "--quiet")
	got := query(t, dir, "select status || ' ' || coalesce(error_kind, '-') || ' ' || length(rel_path) from raw.documents where parent_doc_id is not null")
	if len(got) != 1 || got[0] != "landed - "+itoa(len("mail.eml#notes.")+300) {
		t.Fatalf("want the attachment landed under its full name, got %q", got)
	}
	must(t, dir, "load", "--quiet")
	// a load that finds nothing to do may record no run at all
	if runs := query(t, dir, "select count(*) from ops.load_runs where new + changed + quarantined + landed > 0"); runs[0] != "1" {
		t.Fatalf("the second load redid work: %s loads landed something", runs[0])
	}
	if ev := query(t, dir, "select string_agg(event, ' ' order by e.run_id) from ops.document_events e join raw.documents d using (doc_id) where d.parent_doc_id is not null"); ev[0] != "new" {
		t.Fatalf("the attachment's events should be one \"new\", got %q", ev)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
