package extract

import (
	"sort"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/version"
)

// TestRoutedTypesAreTheRoutes: the loader judges which quarantined types
// now have an extractor from version.Routed, without linking this
// package; the two lists must be the same.
func TestRoutedTypesAreTheRoutes(t *testing.T) {
	var have []string
	for typ := range routes {
		have = append(have, typ)
	}
	want := version.RoutedTypes()
	sort.Strings(have)
	sort.Strings(want)
	if len(have) != len(want) {
		t.Fatalf("routes %v, version.Routed %v", have, want)
	}
	for i := range have {
		if have[i] != want[i] {
			t.Fatalf("routes %v, version.Routed %v", have, want)
		}
	}
}
