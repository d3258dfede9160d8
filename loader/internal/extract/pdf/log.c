/* log.c: MuPDF's messages while docket reads a document, kept per
 * document (dk_doc.log) for Warnings in layout.go. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "walk.h"
#include "walkint.h"
#include "_cgo_export.h"

#define DK_LOG_MAX 64

/* At most DK_LOG_MAX messages are kept per call of Warnings, but a
 * warning (prefix "") is kept up to twice that: a flood of errors (a
 * content stream of unknown keywords, each reported) is followed by the
 * warnings that sum it up ("too many syntax errors; ignoring rest of
 * page", "encountered syntax errors; page may not be correct"), which
 * say the page's text may be incomplete (damageClasses): dropped with
 * the flood, the page landed with no review.
 *
 * A message past the cap is still classified (dkDamageClass, damage.go's
 * table): the first message of each class is kept in its place and the
 * class's messages counted, so a page whose 65th message says text is
 * lost (a zlib error, a font MuPDF could not load) has the same review
 * reasons, in the same order, as with no cap. At most one message per
 * class is kept past the cap: the log stays bounded however many
 * messages MuPDF gives. */
static int dk_log_append(dk_log *l, const char *prefix, const char *msg)
{
	size_t need = strlen(prefix) + strlen(msg) + 2;
	if (l->len + need > l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 1024;
		char *nb;
		while (nc < l->len + need) nc *= 2;
		nb = realloc(l->buf, nc);
		if (!nb) return -1;
		l->buf = nb; l->cap = nc;
	}
	l->len += (size_t)sprintf(l->buf + l->len, "%s%s\n", prefix, msg);
	return 0;
}

static void dk_log_past_cap(dk_log *l, const char *prefix, const char *msg)
{
	char line[1024];
	int k, i;
	snprintf(line, sizeof line, "%s%s", prefix, msg);
	k = dkDamageClass(line);
	for (i = 0; k >= 0 && i < l->nclass; i++) {
		if (l->cls[i] == k) { l->ncls[i]++; l->dropped++; return; }
	}
	if (k < 0 || l->nclass >= DK_CLASS_MAX || dk_log_append(l, prefix, msg)) { l->dropped++; return; }
	l->cls[l->nclass] = k;
	l->ncls[l->nclass] = 1;
	l->nclass++;
}

static void dk_log_add(dk_log *l, const char *prefix, const char *msg)
{
	if (l->count >= (prefix[0] ? DK_LOG_MAX : 2 * DK_LOG_MAX)) { dk_log_past_cap(l, prefix, msg); return; }
	if (dk_log_append(l, prefix, msg)) { l->dropped++; return; }
	l->count++;
}

void dk_warn_cb(void *user, const char *msg) { dk_log_add((dk_log *)user, "", msg); }
void dk_error_cb(void *user, const char *msg) { dk_log_add((dk_log *)user, "error: ", msg); }

void dk_log_reset(dk_log *l) { l->len = 0; l->count = 0; l->dropped = 0; l->nclass = 0; }
