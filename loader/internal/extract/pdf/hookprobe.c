//go:build dkhooktest

/* hookprobe.c: test-only (built with -tags dkhooktest, see hookprobe.go):
 * two pages' text hooks on two threads, interleaved, to show that
 * devhooks.c keeps its hook state per thread. */
#include <pthread.h>
#include <semaphore.h>
#include <string.h>
#include "walkint.h"

/* A page as the probe draws it: a device whose fill_text the hook wraps
 * (the device's own does nothing), one span of n glyphs, its cookie. */
typedef struct {
	dk_device_head dev;
	fz_text_span span;
	fz_text text;
	fz_cookie cookie;
} dk_probe_page;

static dk_probe_page dk_pa, dk_pb;
static sem_t dk_a_hooked, dk_b_hooked, dk_a_done;

static void dk_probe_fill_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp) {}

static void dk_probe_init(dk_probe_page *p, int glyphs)
{
	memset(p, 0, sizeof *p);
	p->dev.fill_text = dk_probe_fill_text;
	p->span.len = glyphs;
	p->text.head = p->text.tail = &p->span;
}

/* dk_probe_show shows p's text through its device, as a content stream's
 * Tj does while the page runs. */
static void dk_probe_show(dk_probe_page *p)
{
	fz_matrix m = { 1, 0, 0, 1, 0, 0 };
	fz_color_params cp;
	memset(&cp, 0, sizeof cp);
	p->dev.fill_text(NULL, (fz_device *)&p->dev, &p->text, m, NULL, NULL, 1, cp);
}

/* Page A is hooked, then page B on the other thread; A shows its text and
 * is unhooked, then B shows its text. */
static void *dk_probe_a(void *arg)
{
	dk_hook_text((fz_device *)&dk_pa.dev, &dk_pa.cookie);
	sem_post(&dk_a_hooked);
	sem_wait(&dk_b_hooked);
	dk_probe_show(&dk_pa);
	dk_unhook_text();
	sem_post(&dk_a_done);
	return NULL;
}

static void *dk_probe_b(void *arg)
{
	sem_wait(&dk_a_hooked);
	dk_hook_text((fz_device *)&dk_pb.dev, &dk_pb.cookie);
	sem_post(&dk_b_hooked);
	sem_wait(&dk_a_done);
	dk_probe_show(&dk_pb);
	dk_unhook_text();
	return NULL;
}

/* dk_hookprobe_two_threads runs the two pages (A of 5 glyphs, B of 7) and
 * gives each cookie's progress (16 a glyph when each page counts into its
 * own cookie); -1 when a thread could not start. */
int dk_hookprobe_two_threads(int *a, int *b)
{
	pthread_t ta, tb;
	int rc = 0;
	dk_probe_init(&dk_pa, 5);
	dk_probe_init(&dk_pb, 7);
	sem_init(&dk_a_hooked, 0, 0);
	sem_init(&dk_b_hooked, 0, 0);
	sem_init(&dk_a_done, 0, 0);
	if (pthread_create(&ta, NULL, dk_probe_a, NULL) != 0) return -1;
	if (pthread_create(&tb, NULL, dk_probe_b, NULL) != 0) {
		sem_post(&dk_b_hooked);
		rc = -1;
	} else {
		pthread_join(tb, NULL);
	}
	pthread_join(ta, NULL);
	sem_destroy(&dk_a_hooked);
	sem_destroy(&dk_b_hooked);
	sem_destroy(&dk_a_done);
	*a = dk_pa.cookie.progress;
	*b = dk_pb.cookie.progress;
	return rc;
}
