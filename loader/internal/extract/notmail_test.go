package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// TestTextNamedAsMailLandsAsText: a file named .mbox or .eml that starts
// with a sentence, not a header line (node-mbox's test-attached.mbox and
// test-not-an.mbox), lands every line as plain text with a warning. Before,
// the e-mail reader took the first line for a header field (named by the
// whole sentence) and dropped it without a word, the rest read as a body;
// a file of text only was quarantined corrupt.
func TestTextNamedAsMailLandsAsText(t *testing.T) {
	for name, body := range map[string]string{
		"thread.mbox": "Notes on the thread below, kept for the audit:\n\nFrom ann@example.org Tue Oct  1 12:34:56 2024\nFrom: Ann <ann@example.org>\nSubject: Budget\n\nThe budget is approved.\n",
		"readme.eml":  "This folder holds no message yet.\n",
	} {
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		info, err := detect.Detect(p)
		if err != nil || info.Type != detect.EML {
			t.Fatalf("%s: detected %+v, %v", name, info, err)
		}
		res, err := Route(context.Background(), worker.Request{Path: p, Name: name, Type: info.Type, MIME: info.MIME, Encoding: info.Encoding})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkElements(t, res)
		first, _, _ := strings.Cut(body, "\n")
		if len(res.Pages) != 1 || !strings.HasPrefix(res.Pages[0].Text, first) || !strings.Contains(res.Pages[0].Text, strings.TrimSpace(body[strings.LastIndex(strings.TrimSpace(body), "\n")+1:])) {
			t.Errorf("%s: pages %+v", name, res.Pages)
		}
		if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "not an e-mail message") || !strings.Contains(res.Warnings[0], "landed as plain text") {
			t.Errorf("%s: warnings %q", name, res.Warnings)
		}
	}
}
