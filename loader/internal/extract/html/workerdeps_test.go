package html

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestWorkerLinksNoUnusedFallbacks: go-trafilatura's own fallback
// extractors (go-shiori's readability, DOM Distiller) never run here
// (trafilaturaRun gives both candidates), nor do its metadata's emoji
// cleaning and language classification (gomoji, whatlanggo: ContentOnly),
// and every package a binary links runs its initialisation in every
// process: DOM Distiller's alone was 1.7 MB and 17-55 ms of each
// extraction worker's start, gomoji's ~1 MB. The fork registers them only
// for importers of its fallback and withmetadata packages (eval-html).
func TestWorkerLinksNoUnusedFallbacks(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	out, err := exec.Command(gotool, "list", "-deps", "github.com/docket-dev/docket/loader/cmd/docket-worker").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/markusmobius/go-trafilatura") {
		t.Fatalf("go list -deps does not list go-trafilatura:\n%s", out)
	}
	for _, d := range deps {
		for _, bad := range []string{"github.com/markusmobius/go-domdistiller", "github.com/go-shiori/go-readability",
			"github.com/markusmobius/go-trafilatura/fallback", "github.com/markusmobius/go-trafilatura/withmetadata",
			"github.com/forPelevin/gomoji", "github.com/RadhiFadlillah/whatlanggo"} {
			if strings.HasPrefix(d, bad) {
				t.Errorf("docket-worker links %s (its initialisation runs in every worker; nothing calls it)", d)
			}
		}
	}
}
