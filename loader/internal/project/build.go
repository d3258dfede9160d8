package project

import "fmt"

// Build holds the DuckDB settings of model commands (build, run, test,
// seed): how much memory DuckDB may take before it spills to disk, and
// where it spills.
//
//	build:
//	  memory_limit: 768MB      # default: 768MB or DuckDB's own default (80% of RAM), whichever is smaller
//	  temp_directory: target/duckdb_tmp
type Build struct {
	MemoryLimit   Size   `yaml:"memory_limit"`
	TempDirectory string `yaml:"temp_directory"` // absolute after Load
	// where project.yaml writes memory_limit and temp_directory
	// ("project.yaml:12"; "" when it does not): a profile's settings of the
	// same name then give way (settings.go)
	memoryLimitAt, tempDirAt string
}

// DefaultBuildMemory caps DuckDB's memory in model commands unless
// build.memory_limit says otherwise. DuckDB allocates beyond its limit
// (outside its buffer manager), so a build's peak RSS is well above it:
// at 50k generated documents 4GB gave a 4.5 GB peak, 1GB 1.47-1.59 GiB
// (issue 15's target is 1.5 GB: two heavy models side by side, or one
// beside the search index, fill the pool and DuckDB holds 250-550 MB
// outside it) and 768MB 1.29 GiB, with no model running out of memory
// and about the same CPU; 512MB was once not enough for
// curated.doc_quality there (it aggregated each document's text whole).
const DefaultBuildMemory Size = 768 << 20

// DefaultLoadMemory is DuckDB's memory_limit during `docket load` unless
// loader.memory_limit says otherwise. A load only appends batches and
// merges them by key, so DuckDB needs little; with the build's limit its
// buffer pool kept the pages of what the load wrote cached and grew with
// the corpus (a 50k-document load peaked at 951 MB with 4GB; with 256MB
// 524 MB, with 160MB 434 MB, checkpointing at 1GB of WAL either way).
const DefaultLoadMemory Size = 160 << 20

// machineMemory is MachineMemory; tests give another machine's.
var machineMemory = MachineMemory

// MinDuckDBMemory is the smallest memory_limit docket gives DuckDB (a
// smaller setting is raised to it, with a warning for loader.memory_limit).
const MinDuckDBMemory Size = 64 << 20

// DuckDBMemory is DuckDB's memory_limit during a load, a shard's load and
// `docket land`: loader.memory_limit (default DefaultLoadMemory), raised to
// MinDuckDBMemory when smaller, which warn then says.
func (l Loader) DuckDBMemory() (limit Size, warn string) {
	limit = l.MemoryLimit
	if limit <= 0 {
		limit = DefaultLoadMemory
	}
	machine := machineMemory()
	if limit < MinDuckDBMemory {
		warn = fmt.Sprintf("loader.memory_limit %dMiB is too small for DuckDB; the load uses %dMiB", int64(limit)>>20, int64(MinDuckDBMemory)>>20)
		limit = MinDuckDBMemory
	} else if share := machine / 5 * 4; l.memoryLimitAt == "" && limit == DefaultLoadMemory && share > 0 && limit > share {
		// Not set, and the default is more than DuckDB's own default on
		// this machine (80 % of its memory): DuckDB's is used, and said,
		// as a large load may need the default.
		used := max(share, MinDuckDBMemory)
		warn, limit = fmt.Sprintf("loader.memory_limit is not set and its default, %s, is more than 80 %% of this machine's memory (%s); the load uses %s (80 %%, DuckDB's own default), and a large load may run out of memory",
			limit.human(), machine.human(), used.human()), used
	} else if capped, why := overMachine(limit, machine); why != "" {
		warn, limit = "loader.memory_limit "+why+"; the load uses "+capped.human()+" (80 % of it, DuckDB's own default)", capped
	}
	if warn != "" && l.memoryLimitAt != "" {
		warn = l.memoryLimitAt + ": " + warn
	}
	return limit, warn
}

// overMachine is DuckDB's own default memory_limit (80 % of the
// machine's memory) when limit is more than the machine has, and why
// ("" when it is not, or the machine's memory is unknown: 0). DuckDB
// takes any such setting as written, and a limit nothing can reach is no
// limit: it stops spilling and the machine runs out of memory instead.
// It is never under MinDuckDBMemory (a machine or container under 80 MiB).
func overMachine(limit, machine Size) (Size, string) {
	if machine <= 0 || limit <= machine {
		return limit, ""
	}
	return max(machine/5*4, MinDuckDBMemory), fmt.Sprintf("%s is more than this machine's memory (%s)", limit.human(), machine.human())
}

// human is a size as DuckDB prints one (binary units, one decimal).
func (s Size) human() string {
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, u := float64(s)/1024, 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}

// memoryWarnings records where the memory limits are written (file:line
// for loader.memory_limit's warning, which the load prints) and warns of a
// build.memory_limit under MinDuckDBMemory (the model commands raise it to
// that, which said nothing: a setting not applied as written) or over the
// machine's memory (lowered, see overMachine).
func (p *Project) memoryWarnings(lines map[string]int) {
	if l := lines["loader.memory_limit"]; l > 0 {
		p.Loader.memoryLimitAt = fmt.Sprintf("%s:%d", p.File, l)
	}
	p.OCR.languagesAt = p.File
	if l := lines["ocr.languages"]; l > 0 {
		p.OCR.languagesAt = fmt.Sprintf("%s:%d", p.File, l)
	}
	if l := lines["build.temp_directory"]; l > 0 {
		p.Build.tempDirAt = fmt.Sprintf("%s:%d", p.File, l)
	}
	l := lines["build.memory_limit"]
	if l > 0 {
		p.Build.memoryLimitAt = fmt.Sprintf("%s:%d", p.File, l)
	}
	if l > 0 && p.Build.MemoryLimit < MinDuckDBMemory {
		p.Warnings = append(p.Warnings, Warning{File: p.File, Line: l, Msg: fmt.Sprintf("build.memory_limit %dMiB is too small for DuckDB; the model commands use %dMiB",
			int64(p.Build.MemoryLimit)>>20, int64(MinDuckDBMemory)>>20)})
	}
	if capped, why := overMachine(p.Build.MemoryLimit, machineMemory()); l > 0 && why != "" {
		p.Warnings = append(p.Warnings, Warning{File: p.File, Line: l, Msg: "build.memory_limit " + why + "; the model commands use " + capped.human() + " (80 % of it, DuckDB's own default)"})
		p.Build.MemoryLimit = capped
	}
}

// BuildTempDir is build.temp_directory, or target/duckdb_tmp.
func (p *Project) BuildTempDir() string {
	if p.Build.TempDirectory != "" {
		return p.abs(p.Build.TempDirectory)
	}
	return p.abs(p.TargetDir + "/duckdb_tmp")
}

// BuildTempDirOwned says BuildTempDir is docket's default folder
// (target/duckdb_tmp, named or not), not another folder the user named,
// which other programs may spill into too.
func (p *Project) BuildTempDirOwned() bool {
	return p.BuildTempDir() == p.abs(p.TargetDir+"/duckdb_tmp")
}
