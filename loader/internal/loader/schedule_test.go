package loader

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestAnyNew: the workers are started before hashing only when a file
// surely goes to a worker: new to the warehouse (or deleted before), not
// empty, not over the size limit, readable.
func TestAnyNew(t *testing.T) {
	p := &project.Project{}
	p.Loader.MaxFileSize = 1000
	known := map[string]warehouse.Known{
		"landed":  {DocID: "landed", Status: warehouse.StatusLanded},
		"deleted": {DocID: "deleted", Status: warehouse.StatusDeleted},
	}
	cases := []struct {
		name string
		f    entry
		want bool
	}{
		{"new file", entry{docID: "x", stat: FileStat{Size: 10}}, true},
		{"known file", entry{docID: "landed", stat: FileStat{Size: 10}}, false},
		{"deleted earlier, back now", entry{docID: "deleted", stat: FileStat{Size: 10}}, true},
		{"new but empty", entry{docID: "x", stat: FileStat{Size: 0}}, false},
		{"new but over the size limit", entry{docID: "x", stat: FileStat{Size: 2000}}, false},
		{"new but unreadable", entry{docID: "x", stat: FileStat{Size: 10}, err: document.Errorf(document.KindCorrupt, "cannot stat")}, false},
	}
	for _, c := range cases {
		f := c.f
		if got := anyNew([]*entry{&f}, known, p); got != c.want {
			t.Errorf("%s: anyNew = %v, want %v", c.name, got, c.want)
		}
	}
	if anyNew(nil, known, p) {
		t.Error("no files: nothing to start")
	}
}
