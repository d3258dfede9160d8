/* pagethread.h: dk_page_load on a C thread of its own (pagethread.go). */
#ifndef DK_PAGETHREAD_H
#define DK_PAGETHREAD_H
#include "walk.h"

/* dk_job is one dk_page_load call and its result. */
typedef struct {
	dk_doc *d;
	int number, flags, vectors;
	size_t max_content;
	dk_page *p;
	int rc;
} dk_job;

/* dk_thread_start starts the page thread; it returns the eventfd (non-
 * blocking) the thread adds 1 to after each job, or -1. */
int dk_thread_start(void);
/* dk_thread_run hands j to the page thread (one job at a time: the caller
 * waits for the eventfd before handing the next). */
void dk_thread_run(dk_job *j);
#endif
