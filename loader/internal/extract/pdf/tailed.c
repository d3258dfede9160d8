/* tailed.c: a file followed by bytes of docket's own (a page tree it
 * rebuilt), read by MuPDF as one stream (walk.c dk_open_tail). Kept apart
 * from walk.c, which was past 900 lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tailed.h"

/* A file followed by bytes of docket's own (a page tree it rebuilt), read
 * as one stream: the file through a 64 KB window. */
struct dk_tailed {
	FILE *f;
	int64_t flen, pos; /* pos: where the next read starts (the buffer's end) */
	unsigned char *tail;
	size_t tlen;
	size_t n;          /* bytes in buf, read from pos - n */
	unsigned char buf[65536];
};

static int dk_tailed_next(fz_context *ctx, fz_stream *stm, size_t max)
{
	dk_tailed *t = stm->state;
	size_t n = 0;
	(void)ctx; (void)max;
	if (t->pos < t->flen) {
		size_t want = sizeof t->buf;
		if ((int64_t)want > t->flen - t->pos) want = (size_t)(t->flen - t->pos);
		if (fseeko(t->f, t->pos, SEEK_SET) == 0)
			n = fread(t->buf, 1, want, t->f);
	} else if ((size_t)(t->pos - t->flen) < t->tlen) {
		n = t->tlen - (size_t)(t->pos - t->flen);
		if (n > sizeof t->buf) n = sizeof t->buf;
		memcpy(t->buf, t->tail + (t->pos - t->flen), n);
	}
	t->pos += (int64_t)n;
	t->n = n;
	stm->pos = t->pos;
	stm->rp = t->buf;
	stm->wp = t->buf + n;
	if (n == 0) return -1; /* EOF */
	return *stm->rp++;
}

static void dk_tailed_seek(fz_context *ctx, fz_stream *stm, int64_t offset, int whence)
{
	dk_tailed *t = stm->state;
	int64_t total = t->flen + (int64_t)t->tlen;
	(void)ctx;
	if (whence == SEEK_END) offset += total; /* fz_seek turns SEEK_CUR into SEEK_SET */
	if (offset < 0) offset = 0;
	if (offset > total) offset = total;
	if (offset >= t->pos - (int64_t)t->n && offset <= t->pos) {
		/* within the buffer: MuPDF's lexer and repair seek back and
		 * forth a few bytes at a time; reading the window again for each
		 * made a 300 MB file's repair 20 times slower */
		stm->rp = t->buf + (offset - (t->pos - (int64_t)t->n));
		stm->wp = t->buf + t->n;
		stm->pos = t->pos;
		return;
	}
	t->pos = offset;
	t->n = 0;
	stm->pos = offset;
	stm->rp = stm->wp = t->buf;
}

void dk_tailed_drop(fz_context *ctx, void *state)
{
	dk_tailed *t = state;
	(void)ctx;
	if (t->f) fclose(t->f);
	free(t->tail);
	free(t);
}

/* dk_tailed_new: path's bytes then tail's (taken over: freed with the
 * stream, or here on failure); NULL with *why set when it fails. */
dk_tailed *dk_tailed_new(const char *path, unsigned char *tail, size_t tlen, const char **why)
{
	dk_tailed *t = calloc(1, sizeof *t);
	if (!t) { free(tail); *why = "out of memory"; return NULL; }
	t->tail = tail; t->tlen = tlen;
	t->f = fopen(path, "rb");
	if (!t->f || fseeko(t->f, 0, SEEK_END) != 0 || (t->flen = ftello(t->f)) < 0) {
		*why = "cannot read the file again";
		dk_tailed_drop(NULL, t);
		return NULL;
	}
	return t;
}

/* dk_tailed_stream: t as a MuPDF stream, which owns it from here (may
 * throw: call inside fz_try). */
fz_stream *dk_tailed_stream(fz_context *ctx, dk_tailed *t)
{
	fz_stream *stm = fz_new_stream(ctx, t, dk_tailed_next, dk_tailed_drop);
	stm->seek = dk_tailed_seek;
	return stm;
}
