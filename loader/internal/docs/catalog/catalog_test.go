package catalog

import (
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestExternalErrorKeepsItsReason: the catalog's error for an external
// location DuckDB could not describe holds DuckDB's reason when the
// message's first line only announces it (review29 on 462bf8e: the
// httpfs case that 2add684 mended in the runner still ended at
// "...the required extension 'httpfs':" here).
func TestExternalErrorKeepsItsReason(t *testing.T) {
	loc := "read_parquet('https://example.invalid/hits.parquet')"
	m := &Manifest{Sources: map[string]*Node{"source.shop.web.hits": {UniqueID: "source.shop.web.hits", Name: "hits",
		ResourceType: "source", Schema: "web", Identifier: "hits", RelationName: loc}}}
	msg := "Extension Autoloading Error: An error occurred while trying to automatically install the required extension 'httpfs':\n" +
		"Failed to download extension \"httpfs\" at URL \"http://extensions.duckdb.org/httpfs.duckdb_extension.gz\"\n\n" +
		"LINE 1: describe select * from read_parquet('https://...\n                       ^"
	c := Build(m, []warehouse.Relation{{Name: loc, RowsErr: msg}}, time.Unix(0, 0))
	if len(c.Errors) != 1 || !strings.Contains(c.Errors[0], "required extension 'httpfs': Failed to download extension") ||
		strings.Contains(c.Errors[0], "LINE 1") {
		t.Errorf("errors %q", c.Errors)
	}
}
