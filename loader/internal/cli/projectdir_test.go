package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
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

// TestModelsHelpWithoutProject: `docket build -h` shows the flags where
// there is no project yet (it said "no project.yaml ... or its parents").
func TestModelsHelpWithoutProject(t *testing.T) {
	t.Chdir(t.TempDir())
	var out, errOut bytes.Buffer
	code := runModelsCmd(context.Background(), "build", []string{"-h"}, &out, &errOut)
	if code != ExitOK || !strings.Contains(errOut.String(), "-select") || strings.Contains(errOut.String(), "no project") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}
