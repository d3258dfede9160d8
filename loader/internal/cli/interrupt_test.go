package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// startDocket runs docket as a subprocess; lines of its combined output
// go to the returned buffer and to seen.
func startDocket(t *testing.T, dir string, args ...string) (*exec.Cmd, *syncBuf) {
	t.Helper()
	exe, _ := os.Executable()
	cmd := exec.Command(exe, append(args, "--project", dir)...)
	cmd.Env = append(os.Environ(), "DOCKET_TEST_AS_DOCKET=1")
	out := &syncBuf{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, out
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuf) waitFor(t *testing.T, what string, limit time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if strings.Contains(s.String(), what) {
			return
		}
	}
	t.Fatalf("no %q in output after %s:\n%s", what, limit, s.String())
}

// TestBuildStopsOnSIGTERM: SIGTERM stops a build promptly whatever it is
// doing (rendering a template that never finishes, a long DuckDB query)
// and the build says "interrupted", not that a model or test failed. The
// signal is sent once the build is in the slow part (the model logs, via
// {{ log(..., info=True) }}, just before it), not after a guessed sleep.
func TestBuildStopsOnSIGTERM(t *testing.T) {
	dir, _ := healthProject(t)
	zz := filepath.Join(dir, "models", "zz")
	os.MkdirAll(zz, 0o755)
	for _, tc := range []struct {
		name, model, ready string
		graceful           bool
	}{
		// 2^60 calls of a macro defined in the model, each inside the
		// depth limit: rendering never ends by itself; a rendering Go
		// call is stopped by the exit after interruptGrace.
		{"endless rendering", "{% macro f(n) %}{% if n < 60 %}{{ f(n + 1) }}{{ f(n + 1) }}{% endif %}{% endmacro %}\n{{ log('rendering slow.sql', info=True) }}select 1 as x {{ f(0) }}\n", "rendering slow.sql", false},
		// DuckDB is interrupted through the query's context; the pre-hook
		// logs right before the query starts.
		{"long query", "{{ config(materialized = 'table', pre_hook = \"{{ log('querying slow.sql', info=True) }}\") }}\nselect sum(a.range * b.range) as s from range(200000) a, range(200000) b\n", "querying slow.sql", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.RemoveAll(zz)
			os.MkdirAll(zz, 0o755)
			os.WriteFile(filepath.Join(zz, "slow.sql"), []byte(tc.model), 0o644)
			cmd, out := startDocket(t, dir, "build", "-s", "zz")
			out.waitFor(t, tc.ready, 120*time.Second)
			t0 := time.Now()
			cmd.Process.Signal(syscall.SIGTERM)
			err := cmd.Wait()
			// A liveness check, not a speed target (the 2 s bound,
			// interruptGrace 1.5 s, is for an idle machine): without the
			// interrupt handling these builds never end, so a minute tells
			// the two apart on a CI machine however loaded.
			if took := time.Since(t0); took > time.Minute {
				t.Errorf("SIGTERM took %s to stop the build", took)
			}
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 143 {
				t.Errorf("want exit 143 (SIGTERM), got %v", err)
			}
			s := out.String()
			if !strings.Contains(s, "docket build: interrupted (SIGTERM)") || strings.Contains(s, "ERROR") || strings.Contains(s, "Failure") {
				t.Errorf("want an interrupted build, not an error:\n%s", s)
			}
			if tc.graceful && !strings.Contains(s, "the one in progress was rolled back") {
				t.Errorf("the query should have been interrupted through DuckDB, not by the fallback exit:\n%s", s)
			}
		})
	}
}

// TestMacroRecursionIsAnError: a macro that calls itself without end,
// from macros/ or defined in the model itself, stops the build with an
// error at the template naming it, not a hang or a stack overflow.
func TestMacroRecursionIsAnError(t *testing.T) {
	dir, _ := healthProject(t)
	os.WriteFile(filepath.Join(dir, "macros", "forever.sql"), []byte("{% macro forever(n) %}x{{ forever(n + 1) }}{% endmacro %}\n"), 0o644)
	zz := filepath.Join(dir, "models", "zz")
	for _, tc := range []struct{ name, model, want string }{
		{"project macro", "select 1 as y\n{{ forever(0) }}\n", "calls of macro forever (macros/forever.sql) nest deeper than docket's limit of 64"},
		{"macro in the model", "select 1 as y\n{% macro again(n) %}{{ again(n + 1) }}{% endmacro %}{{ again(0) }}\n", "models/zz/rec.sql:2:1: calls of macro again (defined at line 2) nest deeper than docket's limit of 64"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.RemoveAll(zz)
			os.MkdirAll(zz, 0o755)
			os.WriteFile(filepath.Join(zz, "rec.sql"), []byte(tc.model), 0o644)
			out, code := run(t, dir, "build", "-s", "zz")
			if code != 2 || !strings.Contains(out, "models/zz/rec.sql:") || !strings.Contains(out, tc.want) {
				t.Fatalf("want a positioned error naming the macro (exit 2), got %d:\n%s", code, out)
			}
		})
	}
}
