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
		f    file
		want bool
	}{
		{"new file", file{docID: "x", size: 10}, true},
		{"known file", file{docID: "landed", size: 10}, false},
		{"deleted earlier, back now", file{docID: "deleted", size: 10}, true},
		{"new but empty", file{docID: "x", size: 0}, false},
		{"new but over the size limit", file{docID: "x", size: 2000}, false},
		{"new but unreadable", file{docID: "x", size: 10, err: document.Errorf(document.KindCorrupt, "cannot stat")}, false},
	}
	for _, c := range cases {
		f := c.f
		if got := anyNew([]*file{&f}, known, p); got != c.want {
			t.Errorf("%s: anyNew = %v, want %v", c.name, got, c.want)
		}
	}
	if anyNew(nil, known, p) {
		t.Error("no files: nothing to start")
	}
}
