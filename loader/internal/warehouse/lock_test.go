package warehouse

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain doubles as a process that holds the warehouse open.
func TestMain(m *testing.M) {
	if path := os.Getenv("DOCKET_TEST_HOLD"); path != "" {
		db, err := Open(context.Background(), path, Options{})
		if err != nil {
			os.Exit(3)
		}
		db.SQL().Exec("select 1")
		os.Stdout.WriteString("holding\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	if path := os.Getenv("DOCKET_TEST_READ"); path != "" {
		// A read-only client: holds the file open until a line on stdin,
		// then prints what it reads.
		db, err := Open(context.Background(), path, Options{ReadOnly: true})
		if err != nil {
			os.Exit(3)
		}
		var n int
		db.SQL().QueryRow("select count(*) from t").Scan(&n)
		os.Stdout.WriteString("holding\n")
		bufio.NewReader(os.Stdin).ReadString('\n')
		db.SQL().QueryRow("select count(*) from t").Scan(&n)
		fmt.Println(n)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestLockedWarehouseNamesTheHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.duckdb")
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "DOCKET_TEST_HOLD="+path)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "holding\n" {
		t.Fatalf("holder did not start: %q", line)
	}
	start := time.Now()
	_, err := Open(context.Background(), path, Options{LockTimeout: 1500 * time.Millisecond})
	var le *LockError
	if !errors.As(err, &le) {
		t.Fatalf("want a LockError, got %v", err)
	}
	if waited := time.Since(start); waited < time.Second {
		t.Errorf("gave up after %s, before the lock timeout", waited)
	}
	if le.PID != cmd.Process.Pid {
		t.Errorf("lock error names pid %d, holder is %d", le.PID, cmd.Process.Pid)
	}
	if !strings.Contains(err.Error(), "kill ") || !strings.Contains(err.Error(), path) {
		t.Errorf("message should say how to release it: %s", err)
	}
	// Once the holder is gone, the warehouse opens.
	cmd.Process.Kill()
	cmd.Wait()
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("after the holder exited: %v", err)
	}
	db.Close()
}
