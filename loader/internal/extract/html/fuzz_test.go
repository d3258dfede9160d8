package html

import (
	"context"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/document/doctest"
)

// FuzzExtractBytes: HTML extraction never panics and keeps the result's
// invariants.
func FuzzExtractBytes(f *testing.F) {
	for _, s := range []string{"<html><head><title>T</title></head><body><h1>A</h1><p>b</p><table><tr><td>1</td></tr></table></body></html>",
		"<p>unclosed <b>bold <i>both", "<ul><li>one<li>two</ul>", "<meta charset=latin1><p>caf\xe9</p>", "<div>" + "<div>" + "x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		info, _ := detect.DetectBytes("f.html", data)
		info.Type = detect.HTML
		res, err := ExtractBytes(context.Background(), data, info, document.Options{})
		if err != nil {
			return
		}
		if err := doctest.Check(res); err != nil {
			t.Fatal(err)
		}
	})
}
