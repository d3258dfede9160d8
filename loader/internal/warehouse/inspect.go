package warehouse

import (
	"context"
	"database/sql"
	"os"
)

// EngineVersion is the linked DuckDB's version, e.g. "v1.5.6".
func EngineVersion(ctx context.Context) (string, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return "", err
	}
	defer db.Close()
	var v string
	err = db.QueryRowContext(ctx, "select version()").Scan(&v)
	return v, err
}

// ExtensionAvailable reports (nil) whether DuckDB can load the extension
// here, without network access, in a throwaway in-memory database.
func ExtensionAvailable(ctx context.Context, name string) error {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, "load "+name)
	return err
}

// LockHolder is a process holding a DuckDB lock on the warehouse file.
type LockHolder struct {
	PID     int // 0: nobody
	Writer  bool
	Command string
}

// Name is "PID 4711 (python3 notebook.py)".
func (h LockHolder) Name() string { return holderName(h.PID, h.Command) }

// Holder says which other process, if any, holds the warehouse file's lock,
// without taking it.
func Holder(path string) (LockHolder, error) {
	f, err := os.Open(path)
	if err != nil {
		return LockHolder{}, err
	}
	// Closing f drops this process's POSIX locks on the file: call Holder
	// only when this process does not have the warehouse open.
	defer f.Close()
	pid, writer, err := lockOwner(f)
	if err != nil || pid == 0 {
		return LockHolder{}, err
	}
	return LockHolder{PID: pid, Writer: writer, Command: processCommand(pid)}, nil
}
