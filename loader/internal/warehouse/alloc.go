package warehouse

// AllocatorStats are the C allocators' own figures, in bytes (zero where
// not known: Allocators reads them on Linux only).
type AllocatorStats struct {
	// glibc malloc (mallinfo2): its arenas, its chunks mmap'd one by one,
	// the bytes in use and the bytes free but kept in the arenas.
	GlibcArena int64 `json:"glibc_arena"`
	GlibcMmap  int64 `json:"glibc_mmap"`
	GlibcInUse int64 `json:"glibc_in_use"`
	GlibcFree  int64 `json:"glibc_free"`
	// DuckDB's jemalloc: allocated by DuckDB, in active pages, resident
	// (active plus jemalloc's own metadata and dirty pages not yet
	// purged) and retained (mapped, returned to the system).
	JemallocAllocated int64 `json:"jemalloc_allocated"`
	JemallocActive    int64 `json:"jemalloc_active"`
	JemallocResident  int64 `json:"jemalloc_resident"`
	JemallocRetained  int64 `json:"jemalloc_retained"`
}
