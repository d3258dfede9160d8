package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestSchemaFileVersionWarned: dbt reads only version 2 schema files
// (check_format_version: "version 1 is not supported", "the version is not
// an integer"); docket read any version without a word
// (z2healthinsights/cms_alr_connector's _sources.yml says version: 1). It
// reads the file as version 2 and warns at the key; version 2 or none is
// quiet.
func TestSchemaFileVersionWarned(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml":  "version: 1\nname: mem\n",
		"models/a.sql":  "select 1 as id",
		"models/v1.yml": "version: 1\nsources:\n  - name: s\n    tables: [{name: t}]\n",
		"models/vs.yml": "version: '2'\nmodels:\n  - name: a\n",
		"models/v2.yml": "version: 2\nmodels:\n  - name: a\n    description: x\n",
		"models/no.yml": "sources:\n  - name: u\n    tables: [{name: t}]\n",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	var got []string
	for _, w := range compilertest.Strings(m.Warnings) {
		if strings.Contains(w, "version") {
			got = append(got, w)
		}
	}
	want := []string{
		`models/v1.yml:1:10: version 1: dbt reads only version 2 schema files (it stops here: "version 1 is not supported"); docket reads this one as version 2`,
		`models/vs.yml:1:10: version '2': dbt reads only version 2 schema files (it stops here: "the version is not an integer"); docket reads this one as version 2`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
