//go:build linux && cgo

package warehouse

/*
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

// DuckDB's bundled jemalloc (duckdb-go's static library links it with its
// symbols prefixed duckdb_je_). Weak: a docket linked against a libduckdb
// built without jemalloc (duckdb_use_lib) still links, and reads zeros.
extern int duckdb_je_mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen) __attribute__((weak));

static int je_stat(const char *name, size_t *v) {
	size_t len = sizeof(*v);
	if (!duckdb_je_mallctl) return -1;
	return duckdb_je_mallctl(name, v, &len, NULL, 0);
}

static int je_refresh(void) {
	uint64_t epoch = 1;
	size_t len = sizeof(epoch);
	if (!duckdb_je_mallctl) return -1;
	return duckdb_je_mallctl("epoch", &epoch, &len, &epoch, len);
}

// mallinfo2 is glibc's (2.33 and later); another C library reads zeros.
static void glibc_stats(size_t out[4]) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	struct mallinfo2 m = mallinfo2();
	out[0] = m.arena;    // bytes of the main and other arenas (sbrk/mmap'd heaps)
	out[1] = m.hblkhd;   // bytes in chunks mmap'd one by one
	out[2] = m.uordblks; // bytes in use
	out[3] = m.fordblks; // bytes free inside the arenas
#else
	out[0] = out[1] = out[2] = out[3] = 0;
#endif
}
*/
import "C"

import "unsafe"

// Allocators reads the C allocators of the process: glibc's malloc
// (DuckDB's C++ objects outside its buffer manager, the extractors' C
// libraries) and DuckDB's own jemalloc (its buffer manager's blocks and
// what jemalloc keeps cached after they are freed).
func Allocators() AllocatorStats {
	var g [4]C.size_t
	C.glibc_stats(&g[0])
	s := AllocatorStats{GlibcArena: int64(g[0]), GlibcMmap: int64(g[1]), GlibcInUse: int64(g[2]), GlibcFree: int64(g[3])}
	if C.je_refresh() != 0 {
		return s
	}
	for _, st := range []struct {
		name string
		v    *int64
	}{{"stats.allocated", &s.JemallocAllocated}, {"stats.active", &s.JemallocActive}, {"stats.resident", &s.JemallocResident}, {"stats.retained", &s.JemallocRetained}} {
		var v C.size_t
		cs := C.CString(st.name)
		if C.je_stat(cs, &v) == 0 {
			*st.v = int64(v)
		}
		C.free(unsafe.Pointer(cs))
	}
	return s
}
