/* pagethread.c: the page thread (see pagethread.go). */
#include <pthread.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <errno.h>
#include "pagethread.h"

static pthread_mutex_t dk_thread_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dk_thread_cv = PTHREAD_COND_INITIALIZER;
static dk_job *dk_thread_job;
static int dk_thread_efd = -1;

static void *dk_thread_loop(void *arg)
{
	(void)arg;
	for (;;) {
		dk_job *j;
		uint64_t one = 1;
		pthread_mutex_lock(&dk_thread_mu);
		while (!dk_thread_job)
			pthread_cond_wait(&dk_thread_cv, &dk_thread_mu);
		j = dk_thread_job;
		dk_thread_job = NULL;
		pthread_mutex_unlock(&dk_thread_mu);
		j->rc = dk_page_load(j->d, j->number, j->flags, j->vectors, j->max_content, j->p);
		while (write(dk_thread_efd, &one, sizeof one) < 0 && errno == EINTR) {}
	}
	return NULL;
}

int dk_thread_start(void)
{
	pthread_t th;
	pthread_attr_t a;
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (fd < 0) return -1;
	dk_thread_efd = fd;
	/* Default attributes but detached: the stack is the size the threads
	 * Go starts for cgo calls get (ulimit -s), so MuPDF's recursion on a
	 * hostile file ends where it did on the calling thread. */
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&th, &a, dk_thread_loop, NULL) != 0) {
		pthread_attr_destroy(&a);
		close(fd);
		dk_thread_efd = -1;
		return -1;
	}
	pthread_attr_destroy(&a);
	return fd;
}

void dk_thread_run(dk_job *j)
{
	pthread_mutex_lock(&dk_thread_mu);
	dk_thread_job = j;
	pthread_cond_signal(&dk_thread_cv);
	pthread_mutex_unlock(&dk_thread_mu);
}
