package pdf

/*
#include <stdlib.h>
#include "pagethread.h"
*/
import "C"

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"unsafe"
)

// UsePageThread makes this process read PDF pages on a C thread of its
// own (the extraction worker calls it; other callers read them on the
// calling goroutine's thread). dk_page_load, MuPDF's interpretation of a
// page, is the one long C call of a page (~1 ms). Made from a goroutine
// of a worker run with GOMAXPROCS=1, it holds the process's only P in a
// system call: the runtime's monitor thread takes the P back 20 us into
// every such call, starts a thread to look for other work (there is
// none), and keeps waking every 20 us while pages come. On the page
// thread the goroutine waits on an eventfd through the network poller
// instead: the P is idle, the monitor sleeps, and the goroutine resumes
// when the thread writes the eventfd. Over the corpus's pages read twice
// (3,130 page loads, GOMAXPROCS=1, in-process, 3 alternating runs, load
// average ~17): CPU 4.70-5.41 s -> 4.62-5.25 s (-1.5 to -4.3 %),
// voluntary context switches 14.9-23.0k -> 11.7-17.0k, same layouts.
//
// Every hook the page load installs in MuPDF's device (devhooks.c,
// vectors.c) is set and cleared inside dk_page_load, so running it on
// another thread changes nothing of what it reads; one page is read at a
// time in the process (pageThread.mu), the calling goroutine waiting.
func UsePageThread() { pageThread.on.Store(true) }

var pageThread struct {
	on    atomic.Bool
	mu    sync.Mutex // one job at a time
	once  sync.Once
	efd   *os.File // written by the thread after each job; nil when it could not start
	job   *C.dk_job
	pages atomic.Int64 // pages read on the thread (tests)
}

// loadPage is dk_page_load, on the page thread when the process uses one.
func loadPage(d *C.dk_doc, number, flags, vectors C.int, maxContent C.size_t, p *C.dk_page) C.int {
	if !pageThread.on.Load() {
		return C.dk_page_load(d, number, flags, vectors, maxContent, p)
	}
	pageThread.mu.Lock()
	defer pageThread.mu.Unlock()
	pageThread.once.Do(startPageThread)
	if pageThread.efd == nil {
		return C.dk_page_load(d, number, flags, vectors, maxContent, p)
	}
	j := pageThread.job
	*j = C.dk_job{d: d, number: number, flags: flags, vectors: vectors, max_content: maxContent, p: p}
	C.dk_thread_run(j)
	var b [8]byte
	if _, err := io.ReadFull(pageThread.efd, b[:]); err != nil {
		// Cannot happen with an eventfd; going on would read the next
		// page while this one may still be read.
		panic(fmt.Sprintf("pdf: page thread: %v", err))
	}
	pageThread.pages.Add(1)
	return j.rc
}

func startPageThread() {
	fd := C.dk_thread_start()
	if fd < 0 {
		return // pages are read on the calling thread
	}
	// A non-blocking descriptor: os.NewFile reads it through the poller.
	pageThread.efd = os.NewFile(uintptr(fd), "dk-page-thread")
	pageThread.job = (*C.dk_job)(C.calloc(1, C.size_t(unsafe.Sizeof(C.dk_job{}))))
}
