package cli

import (
	"os"
	"testing"
)

// TestDbtProjectDirFlags: dbt's spellings --project-dir and --profiles-dir
// are accepted by every command (they were "flag provided but not defined").
func TestDbtProjectDirFlags(t *testing.T) {
	t.Setenv("DBT_PROFILES_DIR", "")
	dir, _, rest := splitProjectFlag([]string{"-s", "m", "--project-dir", "sub", "--profiles-dir=/etc/dbt"})
	if dir != "sub" || len(rest) != 2 || os.Getenv("DBT_PROFILES_DIR") != "/etc/dbt" {
		t.Errorf("dir %q rest %q DBT_PROFILES_DIR %q", dir, rest, os.Getenv("DBT_PROFILES_DIR"))
	}
	if dir, _, _ := splitProjectFlag([]string{"--project-dir=x"}); dir != "x" {
		t.Errorf("--project-dir=x: %q", dir)
	}
}
