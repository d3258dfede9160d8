package project

// Build holds the DuckDB settings of model commands (build, run, test,
// seed): how much memory DuckDB may take before it spills to disk, and
// where it spills.
//
//	build:
//	  memory_limit: 4GB        # default: 4GB or DuckDB's own default (80% of RAM), whichever is smaller
//	  temp_directory: target/duckdb_tmp
type Build struct {
	MemoryLimit   Size   `yaml:"memory_limit"`
	TempDirectory string `yaml:"temp_directory"` // absolute after Load
}

// DefaultBuildMemory caps DuckDB's memory in model commands unless
// build.memory_limit says otherwise.
const DefaultBuildMemory Size = 4 << 30

// BuildTempDir is build.temp_directory, or target/duckdb_tmp.
func (p *Project) BuildTempDir() string {
	if p.Build.TempDirectory != "" {
		return p.abs(p.Build.TempDirectory)
	}
	return p.abs(p.TargetDir + "/duckdb_tmp")
}
