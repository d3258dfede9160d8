#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "walk.h"

#define DK_LOG_MAX 64

static void dk_log_add(dk_log *l, const char *prefix, const char *msg)
{
	size_t need;
	if (l->count >= DK_LOG_MAX) { l->dropped++; return; }
	need = strlen(prefix) + strlen(msg) + 2;
	if (l->len + need > l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 1024;
		char *nb;
		while (nc < l->len + need) nc *= 2;
		nb = realloc(l->buf, nc);
		if (!nb) { l->dropped++; return; }
		l->buf = nb; l->cap = nc;
	}
	l->len += (size_t)sprintf(l->buf + l->len, "%s%s\n", prefix, msg);
	l->count++;
}

static void dk_warn_cb(void *user, const char *msg) { dk_log_add((dk_log *)user, "", msg); }
static void dk_error_cb(void *user, const char *msg) { dk_log_add((dk_log *)user, "error: ", msg); }

void dk_log_reset(dk_log *l) { l->len = 0; l->count = 0; l->dropped = 0; }

static void dk_seterr(char *dst, const char *msg)
{
	strncpy(dst, msg ? msg : "unknown error", 511);
	dst[511] = 0;
}

fz_context *dk_ctx_new(size_t max_store)
{
	fz_context *ctx = fz_new_context_imp(NULL, NULL, max_store, DK_FZ_VERSION);
	int failed = 0;
	if (!ctx) return NULL;
	fz_try(ctx) {
		fz_register_document_handlers(ctx);
	}
	fz_catch(ctx) {
		failed = 1;
	}
	if (failed) { fz_drop_context(ctx); return NULL; }
	return ctx;
}

void dk_ctx_drop(fz_context *ctx) { fz_drop_context(ctx); }

int dk_open(dk_doc *d, fz_context *ctx, const char *path, const unsigned char *data, size_t len, const char *magic)
{
	fz_document *doc = NULL;
	fz_stream *stm = NULL;
	int failed = 0;

	memset(d, 0, sizeof *d);
	d->ctx = ctx;
	fz_set_warning_callback(ctx, dk_warn_cb, &d->log);
	fz_set_error_callback(ctx, dk_error_cb, &d->log);
	fz_var(doc);
	fz_var(stm);
	fz_try(ctx) {
		if (data) {
			stm = fz_open_memory(ctx, data, len);
			doc = fz_open_document_with_stream(ctx, magic, stm);
		} else {
			doc = fz_open_document(ctx, path);
		}
	}
	fz_catch(ctx) {
		dk_seterr(d->err, fz_caught_message(ctx));
		failed = 1;
	}
	d->stm = stm;
	if (failed || !doc) {
		if (!failed) dk_seterr(d->err, "cannot open document");
		return 2;
	}
	d->doc = doc;
	failed = 0;
	fz_try(ctx) {
		failed = fz_needs_password(ctx, doc);
	}
	fz_catch(ctx) {
		failed = 1;
	}
	if (failed) return 3;
	return 0;
}

void dk_close(dk_doc *d)
{
	if (d->ctx) {
		fz_flush_warnings(d->ctx);
		if (d->doc) fz_drop_document(d->ctx, d->doc);
		if (d->stm) fz_drop_stream(d->ctx, d->stm);
		fz_set_warning_callback(d->ctx, NULL, NULL);
		fz_set_error_callback(d->ctx, NULL, NULL);
	}
	free(d->log.buf);
	memset(d, 0, sizeof *d);
}

int dk_count_pages(dk_doc *d)
{
	int n = -1;
	fz_try(d->ctx) {
		n = fz_count_pages(d->ctx, d->doc);
	}
	fz_catch(d->ctx) {
		dk_seterr(d->err, fz_caught_message(d->ctx));
		n = -1;
	}
	return n;
}

int dk_metadata(dk_doc *d, const char *key, char *buf, int size)
{
	int n = -1;
	buf[0] = 0;
	fz_try(d->ctx) {
		n = fz_lookup_metadata(d->ctx, d->doc, key, buf, size);
	}
	fz_catch(d->ctx) {
		n = -1;
	}
	return n;
}

#define GROW(arr, n, cap, type) do { \
	if ((n) >= (cap)) { \
		int nc_ = (cap) ? (cap) * 2 : 256; \
		type *na_ = realloc((arr), sizeof(type) * (size_t)nc_); \
		if (!na_) return -1; \
		(arr) = na_; (cap) = nc_; \
	} } while (0)

static float fmin4(float a, float b, float c, float e) { float m = a; if (b < m) m = b; if (c < m) m = c; if (e < m) m = e; return m; }
static float fmax4(float a, float b, float c, float e) { float m = a; if (b > m) m = b; if (c > m) m = c; if (e > m) m = e; return m; }

/* dk_fill walks an stext page into p's arrays; -1 on allocation failure. */
static int dk_fill(dk_page *p, fz_stext_page *st)
{
	fz_stext_block *b;
	fz_stext_line *ln;
	fz_stext_char *ch;
	fz_font *lastfont = NULL;
	int lastidx = -1, i;

	for (b = st->first_block; b; b = b->next) {
		dk_block *ob;
		GROW(p->blocks, p->nblocks, p->capblocks, dk_block);
		ob = &p->blocks[p->nblocks++];
		ob->type = b->type;
		ob->x0 = b->bbox.x0; ob->y0 = b->bbox.y0; ob->x1 = b->bbox.x1; ob->y1 = b->bbox.y1;
		ob->first = p->nlines; ob->n = 0;
		if (b->type != FZ_STEXT_BLOCK_TEXT) continue;
		for (ln = b->u.t.first_line; ln; ln = ln->next) {
			dk_line *ol;
			GROW(p->lines, p->nlines, p->caplines, dk_line);
			ol = &p->lines[p->nlines++];
			ob = &p->blocks[p->nblocks - 1];
			ob->n++;
			ol->wmode = ln->wmode; ol->dx = ln->dir.x; ol->dy = ln->dir.y;
			ol->x0 = ln->bbox.x0; ol->y0 = ln->bbox.y0; ol->x1 = ln->bbox.x1; ol->y1 = ln->bbox.y1;
			ol->first = p->nchars; ol->n = 0;
			for (ch = ln->first_char; ch; ch = ch->next) {
				dk_char *oc;
				const fz_quad *q = &ch->quad;
				GROW(p->chars, p->nchars, p->capchars, dk_char);
				oc = &p->chars[p->nchars++];
				p->lines[p->nlines - 1].n++;
				oc->c = ch->c;
				oc->x0 = fmin4(q->ul.x, q->ur.x, q->ll.x, q->lr.x);
				oc->x1 = fmax4(q->ul.x, q->ur.x, q->ll.x, q->lr.x);
				oc->y0 = fmin4(q->ul.y, q->ur.y, q->ll.y, q->lr.y);
				oc->y1 = fmax4(q->ul.y, q->ur.y, q->ll.y, q->lr.y);
				oc->ox = ch->origin.x; oc->oy = ch->origin.y;
				oc->size = ch->size;
				if (ch->font != lastfont) {
					lastidx = -1;
					for (i = 0; i < p->nfonts; i++)
						if (p->fonts[i] == ch->font) { lastidx = i; break; }
					if (lastidx < 0) {
						GROW(p->fonts, p->nfonts, p->capfonts, fz_font *);
						p->fonts[p->nfonts] = ch->font;
						lastidx = p->nfonts++;
					}
					lastfont = ch->font;
				}
				oc->font = lastidx;
			}
		}
	}
	return 0;
}

int dk_page_load(dk_doc *d, int number, int flags, dk_page *p)
{
	fz_context *ctx = d->ctx;
	fz_page *page = NULL;
	fz_stext_page *st = NULL;
	fz_stext_options opts;
	fz_rect r = { 0, 0, 0, 0 };
	int failed = 0;

	p->nchars = p->nlines = p->nblocks = p->nfonts = 0;
	p->stext = NULL;
	p->err[0] = 0;
	memset(&opts, 0, sizeof opts);
	opts.flags = flags;
	opts.scale = 1;
	fz_var(page);
	fz_var(st);
	fz_try(ctx) {
		page = fz_load_page(ctx, d->doc, number);
		r = fz_bound_page(ctx, page);
		st = fz_new_stext_page_from_page(ctx, page, &opts);
	}
	fz_always(ctx) {
		if (page) fz_drop_page(ctx, page);
	}
	fz_catch(ctx) {
		dk_seterr(p->err, fz_caught_message(ctx));
		failed = 1;
	}
	p->px0 = r.x0; p->py0 = r.y0; p->px1 = r.x1; p->py1 = r.y1;
	if (failed) {
		if (st) fz_drop_stext_page(ctx, st);
		return -1;
	}
	p->stext = st;
	if (dk_fill(p, st) < 0) {
		dk_seterr(p->err, "out of memory walking the page");
		return -1;
	}
	return 0;
}

void dk_page_release(dk_doc *d, dk_page *p)
{
	if (p->stext) fz_drop_stext_page(d->ctx, p->stext);
	p->stext = NULL;
}

void dk_page_free(dk_page *p)
{
	free(p->chars); free(p->lines); free(p->blocks); free(p->fonts);
	memset(p, 0, sizeof *p);
}

const char *dk_font_name(dk_doc *d, fz_font *f) { return fz_font_name(d->ctx, f); }

int dk_font_flags(dk_doc *d, fz_font *f)
{
	int fl = 0;
	if (fz_font_is_bold(d->ctx, f)) fl |= 1;
	if (fz_font_is_italic(d->ctx, f)) fl |= 2;
	if (fz_font_is_monospaced(d->ctx, f)) fl |= 4;
	return fl;
}
