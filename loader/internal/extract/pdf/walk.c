#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <math.h>
#include "walk.h"
#include "tailed.h"
#include "_cgo_export.h"

static const fz_matrix dk_identity = { 1, 0, 0, 1, 0, 0 };

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

static void dk_warn_cb(void *user, const char *msg) { dk_log_add((dk_log *)user, "", msg); }
static void dk_error_cb(void *user, const char *msg) { dk_log_add((dk_log *)user, "error: ", msg); }

void dk_log_reset(dk_log *l) { l->len = 0; l->count = 0; l->dropped = 0; l->nclass = 0; }

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
		/* Text extraction needs no colour management; with ICC on, every
		 * text colour goes through lcms (PyMuPDF also runs with it off). */
		fz_disable_icc(ctx);
	}
	fz_catch(ctx) {
		failed = 1;
	}
	if (failed) { fz_drop_context(ctx); return NULL; }
	return ctx;
}

void dk_ctx_drop(fz_context *ctx) { fz_drop_context(ctx); }

/* dk_drop_structure removes /StructTreeRoot from the in-memory catalog of
 * a tagged PDF (the file is never written). MuPDF 1.24's interpreter walks
 * the structure tree at every marked-content operator (BDC/EMC: parent
 * chains, common ancestors, role map) to send begin/end_structure to the
 * device, and the 1.24 stext device ignores those calls; on docket's PDF
 * corpus that walk was ~14% of all instructions of a text extraction, for
 * identical text. What is lost: an /ActualText or /Lang set on a structure
 * element rather than in the content's own BDC properties (ActualText in
 * the BDC dictionary, the usual place, still applies). Failures are
 * ignored: the document then simply keeps its tree. */
static void dk_drop_structure(dk_doc *d)
{
	fz_context *ctx = d->ctx;
	fz_try(ctx) {
		pdf_document *pdf = pdf_specifics(ctx, d->doc);
		if (pdf) {
			pdf_obj *root = pdf_dict_gets(ctx, pdf_trailer(ctx, pdf), "Root");
			if (root && pdf_dict_gets(ctx, root, "StructTreeRoot"))
				pdf_dict_dels(ctx, root, "StructTreeRoot");
		}
	}
	fz_catch(ctx) {
	}
}

/* dk_begin readies d for opening a document with ctx: MuPDF's messages
 * go to its log. */
static void dk_begin(dk_doc *d, fz_context *ctx)
{
	memset(d, 0, sizeof *d);
	d->ctx = ctx;
	fz_set_warning_callback(ctx, dk_warn_cb, &d->log);
	fz_set_error_callback(ctx, dk_error_cb, &d->log);
}

/* dk_opened keeps what opening gave (the stream, for dk_close to drop,
 * even when opening failed): 0, or 2 when it failed (err set). */
static int dk_opened(dk_doc *d, fz_document *doc, fz_stream *stm, int failed)
{
	d->stm = stm;
	if (failed || !doc) {
		if (!failed) dk_seterr(d->err, "cannot open document");
		return 2;
	}
	d->doc = doc;
	return 0;
}

int dk_open_tail(dk_doc *d, fz_context *ctx, const char *path, unsigned char *tail, size_t tlen)
{
	fz_document *doc = NULL;
	fz_stream *stm = NULL;
	dk_tailed *t;
	int failed = 0;

	const char *why = NULL;

	dk_begin(d, ctx);
	t = dk_tailed_new(path, tail, tlen, &why);
	if (!t) { dk_seterr(d->err, why); return 2; }
	fz_var(doc);
	fz_var(stm);
	fz_try(ctx) {
		stm = dk_tailed_stream(ctx, t);
		doc = fz_open_document_with_stream(ctx, "application/pdf", stm);
	}
	fz_catch(ctx) {
		dk_seterr(d->err, fz_caught_message(ctx));
		failed = 1;
	}
	if (dk_opened(d, doc, stm, failed)) return 2;
	dk_drop_structure(d);
	return 0;
}

int dk_open(dk_doc *d, fz_context *ctx, const char *path, const unsigned char *data, size_t len, const char *magic)
{
	fz_document *doc = NULL;
	fz_stream *stm = NULL;
	int failed = 0;

	dk_begin(d, ctx);
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
	if (dk_opened(d, doc, stm, failed)) return 2;
	failed = 0;
	fz_try(ctx) {
		failed = fz_needs_password(ctx, doc);
	}
	fz_catch(ctx) {
		failed = 1;
	}
	if (failed) return 3;
	dk_drop_structure(d);
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

/* dk_fill walks an stext page into p's arrays; -1 on allocation failure.
 * With clip, characters whose box lies entirely outside the page box are
 * left out, and line and block boxes are the union of what is kept (what
 * FZ_STEXT_MEDIABOX_CLIP does, but on the character's box: MuPDF's flag
 * bounds every glyph's outline, which was ~7% of the instructions of a
 * text-layer extraction, for the same text on docket's corpus). */
static int dk_fill(dk_page *p, fz_stext_page *st, int clip)
{
	fz_stext_block *b;
	fz_stext_line *ln;
	fz_stext_char *ch;
	fz_font *lastfont = NULL;
	fz_rect mb = st->mediabox;
	int lastidx = -1, i;

	for (b = st->first_block; b; b = b->next) {
		dk_block *ob;
		GROW(p->blocks, p->nblocks, p->capblocks, dk_block);
		ob = &p->blocks[p->nblocks++];
		ob->type = b->type;
		ob->x0 = b->bbox.x0; ob->y0 = b->bbox.y0; ob->x1 = b->bbox.x1; ob->y1 = b->bbox.y1;
		ob->first = p->nlines; ob->n = 0;
		ob->iw = ob->ih = 0;
		if (b->type == FZ_STEXT_BLOCK_IMAGE && b->u.i.image) {
			const dk_fz_image_head *im = (const dk_fz_image_head *)b->u.i.image;
			ob->iw = im->w; ob->ih = im->h;
		}
		if (b->type != FZ_STEXT_BLOCK_TEXT) continue;
		for (ln = b->u.t.first_line; ln; ln = ln->next) {
			dk_line *ol;
			GROW(p->lines, p->nlines, p->caplines, dk_line);
			ol = &p->lines[p->nlines++];
			ol->wmode = ln->wmode; ol->dx = ln->dir.x; ol->dy = ln->dir.y;
			ol->x0 = ln->bbox.x0; ol->y0 = ln->bbox.y0; ol->x1 = ln->bbox.x1; ol->y1 = ln->bbox.y1;
			ol->first = p->nchars; ol->n = 0;
			for (ch = ln->first_char; ch; ch = ch->next) {
				dk_char *oc;
				const fz_quad *q = &ch->quad;
				float x0 = fmin4(q->ul.x, q->ur.x, q->ll.x, q->lr.x);
				float x1 = fmax4(q->ul.x, q->ur.x, q->ll.x, q->lr.x);
				float y0 = fmin4(q->ul.y, q->ur.y, q->ll.y, q->lr.y);
				float y1 = fmax4(q->ul.y, q->ur.y, q->ll.y, q->lr.y);
				if (clip && (x1 < mb.x0 || x0 > mb.x1 || y1 < mb.y0 || y0 > mb.y1))
					continue;
				GROW(p->chars, p->nchars, p->capchars, dk_char);
				oc = &p->chars[p->nchars++];
				ol = &p->lines[p->nlines - 1];
				if (clip) {
					if (ol->n == 0) { ol->x0 = x0; ol->y0 = y0; ol->x1 = x1; ol->y1 = y1; }
					else {
						if (x0 < ol->x0) ol->x0 = x0;
						if (y0 < ol->y0) ol->y0 = y0;
						if (x1 > ol->x1) ol->x1 = x1;
						if (y1 > ol->y1) ol->y1 = y1;
					}
				}
				ol->n++;
				oc->c = ch->c;
				oc->x0 = x0; oc->x1 = x1; oc->y0 = y0; oc->y1 = y1;
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
			ol = &p->lines[p->nlines - 1];
			if (ol->n == 0 && clip) { p->nlines--; continue; }
			ob = &p->blocks[p->nblocks - 1];
			if (clip) {
				if (ob->n == 0) { ob->x0 = ol->x0; ob->y0 = ol->y0; ob->x1 = ol->x1; ob->y1 = ol->y1; }
				else {
					if (ol->x0 < ob->x0) ob->x0 = ol->x0;
					if (ol->y0 < ob->y0) ob->y0 = ol->y0;
					if (ol->x1 > ob->x1) ob->x1 = ol->x1;
					if (ol->y1 > ob->y1) ob->y1 = ol->y1;
				}
			}
			ob->n++;
		}
		if (ob->n == 0 && clip) p->nblocks--;
	}
	return 0;
}

/* ---- vector paths (table rules) ----
 * The stext page of MuPDF 1.24 holds no paths. When vectors are asked
 * for, dk_page_load swaps the device's fill_path/stroke_path for the
 * collectors below (chaining to the originals), so one interpretation of
 * the page yields both text and rules. The page being filled is kept in a
 * thread-local: a cgo call runs on one OS thread from start to end. */

#define DK_MAX_VECS 20000

static __thread dk_page *dk_vpage;
static __thread dk_fill_path_fn *dk_orig_fill;
static __thread dk_stroke_path_fn *dk_orig_stroke;

typedef struct {
	dk_page *p;
	fz_matrix m;
	int fill;
	float hw;                 /* half line width (stroke) */
	float sx, sy, cx, cy;     /* subpath start, current point (page space) */
	float bx0, by0, bx1, by1; /* subpath bbox */
	int npts, straight;
	float px0, py0, px1, py1; /* whole path bbox */
	int pts, slanted, curves;
} dk_vwalk;

static void dk_tf(const fz_matrix *m, float x, float y, float *ox, float *oy)
{
	*ox = x * m->a + y * m->c + m->e;
	*oy = x * m->b + y * m->d + m->f;
}

static void dk_vpush(dk_page *p, float x0, float y0, float x1, float y1, int fill)
{
	dk_vec *v;
	if (p->nvecs >= DK_MAX_VECS) return;
	if (p->nvecs >= p->capvecs) {
		int nc = p->capvecs ? p->capvecs * 2 : 256;
		dk_vec *nv = realloc(p->vecs, sizeof(dk_vec) * (size_t)nc);
		if (!nv) return;
		p->vecs = nv; p->capvecs = nc;
	}
	v = &p->vecs[p->nvecs++];
	v->x0 = x0 < x1 ? x0 : x1; v->x1 = x0 < x1 ? x1 : x0;
	v->y0 = y0 < y1 ? y0 : y1; v->y1 = y0 < y1 ? y1 : y0;
	v->fill = fill;
}

static void dk_vseg(dk_vwalk *w, float x0, float y0, float x1, float y1)
{
	float dx = x1 - x0, dy = y1 - y0;
	if (dx < 0) dx = -dx;
	if (dy < 0) dy = -dy;
	if (dy <= 0.5f && dx > 0.5f) {
		float y = (y0 + y1) / 2;
		dk_vpush(w->p, x0, y - w->hw, x1, y + w->hw, 0);
	} else if (dx <= 0.5f && dy > 0.5f) {
		float x = (x0 + x1) / 2;
		dk_vpush(w->p, x - w->hw, y0, x + w->hw, y1, 0);
	}
}

static void dk_vend(dk_vwalk *w)
{
	if (w->fill && w->npts >= 2 && w->straight)
		dk_vpush(w->p, w->bx0, w->by0, w->bx1, w->by1, 1);
	w->npts = 0;
}

static void dk_vpoint(dk_vwalk *w, float x, float y)
{
	if (w->pts == 0) { w->px0 = w->px1 = x; w->py0 = w->py1 = y; }
	if (x < w->px0) w->px0 = x;
	if (x > w->px1) w->px1 = x;
	if (y < w->py0) w->py0 = y;
	if (y > w->py1) w->py1 = y;
	w->pts++;
	if (w->npts == 0) { w->bx0 = w->bx1 = x; w->by0 = w->by1 = y; }
	if (x < w->bx0) w->bx0 = x;
	if (x > w->bx1) w->bx1 = x;
	if (y < w->by0) w->by0 = y;
	if (y > w->by1) w->by1 = y;
	w->npts++;
}

static void dk_w_moveto(fz_context *ctx, void *arg, float x, float y)
{
	dk_vwalk *w = arg;
	dk_vend(w);
	dk_tf(&w->m, x, y, &w->cx, &w->cy);
	w->sx = w->cx; w->sy = w->cy;
	w->straight = 1;
	dk_vpoint(w, w->cx, w->cy);
}

static void dk_w_lineto(fz_context *ctx, void *arg, float x, float y)
{
	dk_vwalk *w = arg;
	float nx, ny, dx, dy;
	dk_tf(&w->m, x, y, &nx, &ny);
	dx = nx - w->cx; dy = ny - w->cy;
	if (dx < 0) dx = -dx;
	if (dy < 0) dy = -dy;
	if (dx > 0.5f && dy > 0.5f) { w->straight = 0; w->slanted++; }
	if (!w->fill) dk_vseg(w, w->cx, w->cy, nx, ny);
	w->cx = nx; w->cy = ny;
	dk_vpoint(w, nx, ny);
}

static void dk_w_curveto(fz_context *ctx, void *arg, float x1, float y1, float x2, float y2, float x3, float y3)
{
	dk_vwalk *w = arg;
	float nx, ny;
	dk_tf(&w->m, x3, y3, &nx, &ny);
	w->straight = 0;
	w->curves++;
	w->cx = nx; w->cy = ny;
	dk_vpoint(w, nx, ny);
}

static void dk_w_closepath(fz_context *ctx, void *arg)
{
	dk_vwalk *w = arg;
	float dx = w->sx - w->cx, dy = w->sy - w->cy;
	if (dx < 0) dx = -dx;
	if (dy < 0) dy = -dy;
	if (dx > 0.5f && dy > 0.5f) { w->straight = 0; w->slanted++; }
	if (!w->fill) dk_vseg(w, w->cx, w->cy, w->sx, w->sy);
	w->cx = w->sx; w->cy = w->sy;
}

static void dk_w_rectto(fz_context *ctx, void *arg, float x1, float y1, float x2, float y2)
{
	dk_vwalk *w = arg;
	float ax, ay, bx, by, cx, cy, ex, ey;
	dk_vend(w);
	dk_tf(&w->m, x1, y1, &ax, &ay);
	dk_tf(&w->m, x2, y1, &bx, &by);
	dk_tf(&w->m, x2, y2, &cx, &cy);
	dk_tf(&w->m, x1, y2, &ex, &ey);
	if (w->fill) {
		float mx0 = ax, my0 = ay, mx1 = ax, my1 = ay;
		float xs[3] = { bx, cx, ex }, ys[3] = { by, cy, ey };
		int i;
		/* only axis-aligned rectangles */
		if (!((ax - bx < 0.5f && bx - ax < 0.5f) || (ay - by < 0.5f && by - ay < 0.5f))) return;
		for (i = 0; i < 3; i++) {
			if (xs[i] < mx0) mx0 = xs[i];
			if (xs[i] > mx1) mx1 = xs[i];
			if (ys[i] < my0) my0 = ys[i];
			if (ys[i] > my1) my1 = ys[i];
		}
		dk_vpush(w->p, mx0, my0, mx1, my1, 1);
	} else {
		dk_vseg(w, ax, ay, bx, by);
		dk_vseg(w, bx, by, cx, cy);
		dk_vseg(w, cx, cy, ex, ey);
		dk_vseg(w, ex, ey, ax, ay);
	}
	w->cx = w->sx = ax; w->cy = w->sy = ay;
}

static void dk_vwalk_path(fz_context *ctx, const fz_path *path, fz_matrix m, int fill, float lw)
{
	static const fz_path_walker walker = {
		dk_w_moveto, dk_w_lineto, dk_w_curveto, dk_w_closepath,
		NULL, NULL, NULL, dk_w_rectto
	};
	dk_vwalk w;
	float sc;
	if (!dk_vpage || dk_vpage->nvecs >= DK_MAX_VECS) return;
	memset(&w, 0, sizeof w);
	w.p = dk_vpage;
	w.m = m;
	w.fill = fill;
	sc = m.a * m.d - m.b * m.c;
	if (sc < 0) sc = -sc;
	sc = sqrtf(sc);
	w.hw = lw * sc / 2;
	if (w.hw < 0.25f) w.hw = 0.25f;
	fz_walk_path(ctx, path, &walker, &w);
	dk_vend(&w);
	/* plots, pie slices, data markers: the box of the whole path */
	if (w.slanted >= 2 || (w.curves >= 1 && w.slanted >= 1) || w.curves > 4)
		dk_vpush(w.p, w.px0, w.py0, w.px1, w.py1, 2);
}

/* dk_white: paint that does not show on paper (table rules are never
 * white; white boxes are page or cell backgrounds). */
static int dk_white(fz_context *ctx, fz_colorspace *cs, const float *color)
{
	int t, n, i;
	if (!cs || !color) return 0;
	t = fz_colorspace_type(ctx, cs);
	n = fz_colorspace_n(ctx, cs);
	if (n < 1 || n > 4) return 0;
	switch (t) {
	case FZ_COLORSPACE_GRAY:
	case FZ_COLORSPACE_RGB:
	case FZ_COLORSPACE_BGR:
		for (i = 0; i < n; i++) if (color[i] < 0.97f) return 0;
		return 1;
	case FZ_COLORSPACE_CMYK:
		for (i = 0; i < n; i++) if (color[i] > 0.03f) return 0;
		return 1;
	}
	return 0;
}

static void dk_vec_fill(fz_context *ctx, fz_device *dev, const fz_path *path, int even_odd, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp)
{
	if (alpha > 0 && !dk_white(ctx, cs, color)) dk_vwalk_path(ctx, path, ctm, 1, 0);
	if (dk_orig_fill) dk_orig_fill(ctx, dev, path, even_odd, ctm, cs, color, alpha, cp);
}

static void dk_vec_stroke(fz_context *ctx, fz_device *dev, const fz_path *path, const fz_stroke_state *ss, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp)
{
	if (alpha > 0 && !dk_white(ctx, cs, color)) dk_vwalk_path(ctx, path, ctm, 0, ss ? ss->linewidth : 1);
	if (dk_orig_stroke) dk_orig_stroke(ctx, dev, path, ss, ctm, cs, color, alpha, cp);
}

/* The cookie of the page being loaded: text-showing calls add 16 per
 * glyph to its progress (MuPDF counts content-stream tokens there): a
 * glyph costs the text device about 16 tokens' worth of interpretation,
 * so a page of a million short strings counts what it costs (see
 * watchTokens in layout.go). */
static fz_cookie *dk_tcookie;
static dk_fill_text_fn *dk_orig_fill_text;
static dk_stroke_text_fn *dk_orig_stroke_text;
static dk_ignore_text_fn *dk_orig_ignore_text;

static void dk_count_glyphs(const fz_text *text)
{
	const fz_text_span *s;
	if (!dk_tcookie || !text) return;
	for (s = text->head; s; s = s->next) dk_tcookie->progress += 16 * s->len;
}

static void dk_fill_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp)
{
	dk_count_glyphs(text);
	if (dk_orig_fill_text) dk_orig_fill_text(ctx, dev, text, ctm, cs, color, alpha, cp);
}

static void dk_stroke_text(fz_context *ctx, fz_device *dev, const fz_text *text, const fz_stroke_state *ss, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp)
{
	dk_count_glyphs(text);
	if (dk_orig_stroke_text) dk_orig_stroke_text(ctx, dev, text, ss, ctm, cs, color, alpha, cp);
}

static void dk_ignore_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm)
{
	dk_count_glyphs(text);
	if (dk_orig_ignore_text) dk_orig_ignore_text(ctx, dev, text, ctm);
}

static void dk_hook_text(fz_device *dev, fz_cookie *cookie)
{
	dk_device_head *h = (dk_device_head *)dev;
	dk_orig_fill_text = h->fill_text;
	dk_orig_stroke_text = h->stroke_text;
	dk_orig_ignore_text = h->ignore_text;
	h->fill_text = dk_fill_text;
	h->stroke_text = dk_stroke_text;
	h->ignore_text = dk_ignore_text;
	dk_tcookie = cookie;
}

/* Shadings. With FZ_STEXT_PRESERVE_IMAGES, MuPDF 1.24's stext device
 * paints every shading (the sh operator, shading patterns) into an RGB
 * pixmap of its box (its bound on the page, clipped to the current
 * scissor) at 72 dpi, makes an image of the pixmap and adds it as an image
 * block; docket reads only the block's box and the image's size in pixels.
 * dk_fill_shade makes that image block from a pixmap of the same box that
 * has no samples of its own: the box, the pixel size and what the device
 * does with the image (its fill_image) are MuPDF's, only the painting is
 * left out. On docket's PDF corpus the painting was ~1 % of a text-layer
 * extraction's CPU and ~12 % of a worker's page faults. Mesh shadings
 * (types 4-7), whose painting decodes their mesh data and can fail, and
 * boxes over DK_SHADE_MAX_PIXELS, whose pixmap MuPDF might fail to
 * allocate, still go MuPDF's way, so the outcome (block or error) is the
 * same. */
#define DK_SHADE_MAX_PIXELS (16.0 * 1024 * 1024)

static dk_fill_shade_fn *dk_orig_fill_shade;
static dk_fill_image_fn *dk_orig_fill_image;
static unsigned char dk_no_samples[8]; /* never read: nothing reads a shading's pixels */

static void dk_fill_shade(fz_context *ctx, fz_device *dev, fz_shade *shade, fz_matrix ctm, float alpha, fz_color_params cp)
{
	const dk_fz_shade_head *sh = (const dk_fz_shade_head *)shade;
	fz_irect bbox;
	fz_pixmap *pix;
	fz_image *img = NULL;
	fz_matrix local = { 0, 0, 0, 0, 0, 0 };
	double w, h;

	if (sh->type >= FZ_MESH_TYPE4 || !dk_orig_fill_image) {
		dk_orig_fill_shade(ctx, dev, shade, ctm, alpha, cp);
		return;
	}
	bbox = fz_irect_from_rect(fz_intersect_rect(fz_bound_shade(ctx, shade, ctm), fz_device_current_scissor(ctx, dev)));
	w = (double)bbox.x1 - (double)bbox.x0;
	h = (double)bbox.y1 - (double)bbox.y0;
	if (w > 0 && h > 0 && w * h > DK_SHADE_MAX_PIXELS) {
		dk_orig_fill_shade(ctx, dev, shade, ctm, alpha, cp);
		return;
	}
	pix = fz_new_pixmap_with_bbox_and_data(ctx, fz_device_rgb(ctx), bbox, NULL, !sh->use_background, dk_no_samples);
	fz_var(img);
	fz_try(ctx) {
		img = fz_new_image_from_pixmap(ctx, pix, NULL);
		local.a = fz_pixmap_width(ctx, pix);
		local.d = fz_pixmap_height(ctx, pix);
		local.e = fz_pixmap_x(ctx, pix);
		local.f = fz_pixmap_y(ctx, pix);
	}
	fz_always(ctx) {
		fz_drop_pixmap(ctx, pix);
	}
	fz_catch(ctx) {
		fz_rethrow(ctx);
	}
	fz_try(ctx) {
		dk_orig_fill_image(ctx, dev, img, local, alpha, cp);
	}
	fz_always(ctx) {
		fz_drop_image(ctx, img);
	}
	fz_catch(ctx) {
		fz_rethrow(ctx);
	}
}

static void dk_hook_shade(fz_device *dev)
{
	dk_device_head *h = (dk_device_head *)dev;
	if (!h->fill_shade) return;
	dk_orig_fill_shade = h->fill_shade;
	dk_orig_fill_image = h->fill_image;
	h->fill_shade = dk_fill_shade;
}

/* DK_FLATE_RATIO: deflate data inflates to at most 1032 times its
 * length (a 258-byte match for two 1-bit codes, the format's best case). */
#define DK_FLATE_RATIO 1032

/* dk_stream_bound: an upper bound of what content stream c decodes to,
 * from its raw (still encoded) bytes, read no further than the bound
 * could stay within limit; limit + 1 when the filters allow no such
 * bound (anything but none or one FlateDecode) or the raw bytes cannot
 * be read. */
static size_t dk_stream_bound(fz_context *ctx, pdf_obj *c, size_t limit)
{
	pdf_obj *f = pdf_dict_gets(ctx, c, "Filter");
	size_t ratio = 1, raw = 0;
	fz_stream *stm;
	int failed = 0;
	if (f && pdf_is_array(ctx, f)) {
		if (pdf_array_len(ctx, f) != 1) return limit + 1;
		f = pdf_array_get(ctx, f, 0);
	}
	if (f) {
		const char *name;
		if (!pdf_is_name(ctx, f)) return limit + 1;
		name = pdf_to_name(ctx, f);
		if (strcmp(name, "FlateDecode") != 0 && strcmp(name, "Fl") != 0) return limit + 1;
		ratio = DK_FLATE_RATIO;
	}
	stm = pdf_open_raw_stream(ctx, c);
	fz_try(ctx) {
		raw = fz_skip(ctx, stm, limit / ratio + 1);
	}
	fz_always(ctx) {
		fz_drop_stream(ctx, stm);
	}
	fz_catch(ctx) {
		failed = 1;
	}
	return failed || raw > limit / ratio ? limit + 1 : raw * ratio;
}

/* dk_contents_over: whether the page's content streams inflate to more
 * than limit bytes, read (inflated and dropped) no further than that.
 * MuPDF lexes the whole content once to balance q/Q before interpreting
 * it, out of the cookie's reach: a stream of 1 GiB of operators took
 * 25 s there. Errors are left to the interpreter. Streams whose raw
 * length already bounds them under limit (dk_stream_bound: every page of
 * docket's PDF corpus) are not inflated here: that inflation was ~4% of
 * a text-layer extraction's CPU, for a verdict known from the raw bytes. */
static int dk_contents_over(fz_context *ctx, fz_document *doc, int number, size_t limit)
{
	pdf_document *pdf = pdf_specifics(ctx, doc);
	pdf_obj *contents = NULL;
	size_t total = 0, bound = 0;
	int i, n = 1, over = 0, arr = 0;
	if (!pdf || limit == 0) return 0;
	fz_try(ctx) {
		contents = pdf_dict_gets(ctx, pdf_lookup_page_obj(ctx, pdf, number), "Contents");
		arr = pdf_is_array(ctx, contents);
		if (arr) n = pdf_array_len(ctx, contents);
	}
	fz_catch(ctx) return 0;
	fz_try(ctx) {
		for (i = 0; i < n && bound <= limit; i++) {
			pdf_obj *c = arr ? pdf_array_get(ctx, contents, i) : contents;
			if (pdf_is_stream(ctx, c))
				bound += dk_stream_bound(ctx, c, limit - bound);
		}
	}
	fz_catch(ctx) {
		bound = limit + 1; /* no bound: inflate below */
	}
	if (bound <= limit) return 0;
	for (i = 0; i < n && !over; i++) {
		pdf_obj *c = NULL;
		fz_stream *stm = NULL;
		fz_var(stm);
		fz_try(ctx) {
			c = arr ? pdf_array_get(ctx, contents, i) : contents;
			if (pdf_is_stream(ctx, c)) {
				stm = pdf_open_stream(ctx, c);
				total += fz_skip(ctx, stm, limit + 1 - total);
				over = total > limit;
			}
		}
		fz_always(ctx) {
			if (stm) fz_drop_stream(ctx, stm);
		}
		fz_catch(ctx) {
			/* unreadable: the interpreter will say so */
		}
	}
	return over;
}

int dk_page_load(dk_doc *d, int number, int flags, int vectors, size_t max_content, dk_page *p)
{
	fz_context *ctx = d->ctx;
	fz_page *page = NULL;
	fz_stext_page *st = NULL;
	fz_device *dev = NULL;
	fz_stext_options opts;
	fz_rect r = { 0, 0, 0, 0 };
	int failed = 0, clip = (flags & FZ_STEXT_MEDIABOX_CLIP) != 0;

	p->nchars = p->nlines = p->nblocks = p->nfonts = p->nvecs = 0;
	p->stext = NULL;
	p->err[0] = 0;
	p->content_over = dk_contents_over(ctx, d->doc, number, max_content);
	if (p->content_over) {
		p->px0 = p->py0 = p->px1 = p->py1 = 0;
		return -1;
	}
	memset(&opts, 0, sizeof opts);
	opts.flags = flags & ~FZ_STEXT_MEDIABOX_CLIP; /* dk_fill clips (cheaper) */
	opts.scale = 1;
	fz_var(page);
	fz_var(st);
	fz_var(dev);
	fz_try(ctx) {
		page = fz_load_page(ctx, d->doc, number);
		r = fz_bound_page(ctx, page);
		if (vectors) {
			dk_device_head *h;
			st = fz_new_stext_page(ctx, r);
			dev = fz_new_stext_device(ctx, st, &opts);
			h = (dk_device_head *)dev;
			dk_orig_fill = h->fill_path;
			dk_orig_stroke = h->stroke_path;
			h->fill_path = dk_vec_fill;
			h->stroke_path = dk_vec_stroke;
			dk_vpage = p;
			dk_hook_text(dev, &p->cookie);
			dk_hook_shade(dev);
			fz_run_page_contents(ctx, page, dev, dk_identity, &p->cookie);
			fz_close_device(ctx, dev);
		} else {
			/* fz_new_stext_page_from_page, with the cookie */
			st = fz_new_stext_page(ctx, r);
			dev = fz_new_stext_device(ctx, st, &opts);
			dk_hook_text(dev, &p->cookie);
			dk_hook_shade(dev);
			fz_run_page_contents(ctx, page, dev, dk_identity, &p->cookie);
			fz_close_device(ctx, dev);
		}
	}
	fz_always(ctx) {
		dk_vpage = NULL;
		dk_tcookie = NULL;
		if (dev) fz_drop_device(ctx, dev);
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
	if (dk_fill(p, st, clip) < 0) {
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
	free(p->chars); free(p->lines); free(p->blocks); free(p->fonts); free(p->vecs);
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
