package text

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

// TestFrontMatterRepeatedKeys (text/18, review45's MEDIUM on text/13): a
// front matter repeating a key is no front matter (yaml.v3 refuses it), as
// before, but found without yaml.v3's pairwise error formatting: 4,000
// repeats of one key (32 KB) cost 16 s and 3.9 GB. A list of mappings
// repeating their keys, a nested mapping's keys and a block scalar holding
// "key:" lines are no repeats.
func TestFrontMatterRepeatedKeys(t *testing.T) {
	src := "---\n" + strings.Repeat("k: v\n", 4000) + "---\n\n# Plan\n\nBody.\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := ExtractBytes(context.Background(), []byte(src), detect.Info{Type: detect.Markdown}, document.Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Errorf("allocated %d MB", n>>20)
	}
	if _, ok := res.Metadata.Extra["front_matter"]; ok {
		t.Errorf("a front matter repeating a key was read: %v", res.Metadata.Extra)
	}
	ok := "---\ntitle: Plan\nitems:\n  - name: a\n    size: 1\n  - name: b\n    size: 2\nauthor:\n  name: Ann\nnote: |\n  name: kept\n  name: as text\ntags: [x, y]\n---\n\nBody.\n"
	res, err = ExtractBytes(context.Background(), []byte(ok), detect.Info{Type: detect.Markdown}, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Metadata.Title != "Plan" || res.Metadata.Extra["tags"] != "x, y" {
		t.Errorf("front matter not read: title %q extra %v", res.Metadata.Title, res.Metadata.Extra)
	}
}
