package cli

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// stateRelation is what --defer reads of a node in the state's manifest.json.
type stateRelation struct {
	ResourceType string  `json:"resource_type"`
	Database     *string `json:"database"`
	Schema       string  `json:"schema"`
	Alias        *string `json:"alias"`
	Name         string  `json:"name"`
	RelationName *string `json:"relation_name"`
}

// deferParents is dbt's --defer: every model, seed or snapshot the run
// does not build (not in selected) whose relation the target lacks (with
// favor, whether or not it has it) is read from the relation the state's
// manifest.json records. A relation in another DuckDB file (the state was
// built into another target) is read from that file, attached read-only
// under its database name: its published read copy when there is one (so
// a writer on it never blocks the deferring run), else the file. It
// returns the manifest with those refs deferred and the deferred node
// names, sorted.
func deferParents(ctx context.Context, db *warehouse.DB, m *runner.Manifest, p *project.Project, stateDir string, selected []string, favor bool) (*runner.Manifest, []string, error) {
	if stateDir == "" {
		return nil, nil, fmt.Errorf("--defer reads the relations of a previous run: give --state DIR (a copy of its target/ folder)")
	}
	var old struct {
		Nodes map[string]stateRelation `json:"nodes"`
	}
	if err := readStateManifest(p, stateDir, &old); err != nil {
		return nil, nil, err
	}
	sel := map[string]bool{}
	for _, id := range selected {
		sel[id] = true
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	var current string
	if err := conn.QueryRowContext(ctx, "select current_database()").Scan(&current); err != nil {
		return nil, nil, err
	}
	existing, err := stringSet(ctx, conn, `select lower(table_schema || '.' || table_name) from information_schema.tables where table_catalog = current_database()`)
	if err != nil {
		return nil, nil, err
	}
	attached, err := stringSet(ctx, conn, "select database_name from duckdb_databases()")
	if err != nil {
		return nil, nil, err
	}

	rel := map[string]runner.DeferredRelation{}
	var names []string
	for id, n := range m.Nodes {
		switch {
		case sel[id], n.ResourceType == runner.Test, n.ResourceType == runner.UnitTest, n.ResourceType == runner.Model && n.Config.Materialized == "ephemeral":
			continue
		case !favor && existing[strings.ToLower(n.Schema+"."+n.Alias)]:
			continue
		}
		s, ok := old.Nodes[id]
		if !ok || s.RelationName == nil || *s.RelationName == "" {
			continue // not in the state either: the run reads what it finds, as without --defer
		}
		r := *s.RelationName
		alias := s.Name
		if s.Alias != nil && *s.Alias != "" {
			alias = *s.Alias
		}
		database := current
		if s.Database != nil && *s.Database != "" {
			database = *s.Database
		}
		if s.Database != nil && *s.Database != "" && *s.Database != current && !strings.HasPrefix(r, runner.Quote(*s.Database)+".") {
			r = runner.Quote(*s.Database) + "." + runner.Relation(s.Schema, alias)
			if !attached[*s.Database] {
				if err := attachState(ctx, conn, p, *s.Database); err != nil {
					return nil, nil, err
				}
				attached[*s.Database] = true
			}
		}
		rel[id] = runner.DeferredRelation{Database: database, Schema: s.Schema, Identifier: alias, Rendered: r}
		names = append(names, n.Name)
	}
	sort.Strings(names)
	return m.Defer(rel), names, nil
}

// attachState attaches, read-only, the target warehouse whose file name
// (without extension) is database; its published read copy when it has one.
func attachState(ctx context.Context, conn *sql.Conn, p *project.Project, database string) error {
	var tried []string
	for _, f := range p.TargetWarehouses() {
		stem := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		if stem != database {
			continue
		}
		path := f
		if _, err := os.Stat(warehouse.ReadPath(f)); err == nil {
			path = warehouse.ReadPath(f)
		} else if _, err := os.Stat(f); err != nil {
			tried = append(tried, f)
			continue
		}
		q := fmt.Sprintf("attach '%s' as %s (read_only)", strings.ReplaceAll(path, "'", "''"), runner.Quote(database))
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("--defer: attach %s: %w", path, err)
		}
		return nil
	}
	if len(tried) > 0 {
		return fmt.Errorf("--defer: the state's relations are in database %q, but %s does not exist", database, strings.Join(tried, ", "))
	}
	return fmt.Errorf("--defer: the state's relations are in database %q, and no target of this project (project.yaml warehouse, profiles.yml outputs) builds a file of that name", database)
}

// stringSet runs a query of one text column and returns its values as a set.
func stringSet(ctx context.Context, conn *sql.Conn, query string) (map[string]bool, error) {
	rows, err := conn.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	set := map[string]bool{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		set[k] = true
	}
	return set, rows.Err()
}
