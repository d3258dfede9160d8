package text

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

// TestRSTDocinfoAndExternalContent (text/18, review45's MEDIUMs on
// text/13-14): an RST document's bibliographic fields land as lines under
// its title, as docutils' docinfo table shows them (they were in metadata
// only: "Apache-2.0", "Xyzzy Labs" out of the page and search), and a
// literalinclude or a csv-table's :file: is warned and flagged
// includes_missing as an include is (they landed nothing and said
// nothing).
func TestRSTDocinfoAndExternalContent(t *testing.T) {
	src := "MyLib\n=====\n\n:Version: 1.2.3\n:License: Apache-2.0\n:Organization: Xyzzy Labs\n:Author: Ann\n:Description: Parses things.\n\nMyLib parses things.\n"
	res, err := ExtractBytes(context.Background(), []byte(src), detect.Info{Type: detect.RST}, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Pages[0].Text, "MyLib\n\nParses things.\n\nVersion: 1.2.3\n\nLicense: Apache-2.0\n\nOrganization: Xyzzy Labs\n\nAuthor: Ann\n\nMyLib parses things."; got != want {
		t.Errorf("page %q\nwant %q", got, want)
	}
	if md := res.Metadata; md.Author != "Ann" || md.Extra["license"] != "Apache-2.0" {
		t.Errorf("metadata %+v", md)
	}
	for _, c := range []struct{ src, file string }{
		{"Example\n=======\n\nThe client:\n\n.. literalinclude:: ../examples/client.py\n   :language: python\n\nDone.\n", "../examples/client.py"},
		{"Prices\n======\n\n.. csv-table:: Prices 2024\n   :file: data/prices.csv\n   :header-rows: 1\n\nDone.\n", "data/prices.csv"},
	} {
		res, err := ExtractBytes(context.Background(), []byte(c.src), detect.Info{Type: detect.RST}, document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "include of "+c.file+" not followed") ||
			len(res.Reviews) != 1 || res.Reviews[0].Code != document.ReviewIncludesMissing {
			t.Errorf("%s: warnings %q reviews %v", c.file, res.Warnings, res.Reviews)
		}
	}
}
