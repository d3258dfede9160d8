/* devhooks.c: docket's wraps of the stext device's text and shading
 * calls (glyphs counted into the cookie; shadings' image blocks without
 * their painting). */
#include <stdlib.h>
#include <string.h>
#include "walk.h"
#include "walkint.h"

/* The cookie of the page being loaded: text-showing calls add 16 per
 * glyph to its progress (MuPDF counts content-stream tokens there): a
 * glyph costs the text device about 16 tokens' worth of interpretation,
 * so a page of a million short strings counts what it costs (see
 * watchTokens in layout.go). Like vectors.c, the hook state is the
 * thread's: dk_page_load hooks, runs and unhooks within one C call on one
 * thread, and two pages loaded at once on two threads (tools, tests) each
 * count into their own cookie (TestHookStatePerThread, -tags dkhooktest). */
static __thread fz_cookie *dk_tcookie;
static __thread dk_fill_text_fn *dk_orig_fill_text;
static __thread dk_stroke_text_fn *dk_orig_stroke_text;
static __thread dk_ignore_text_fn *dk_orig_ignore_text;

static void dk_count_glyphs(const fz_text *text)
{
	const fz_text_span *s;
	if (!dk_tcookie || !text) return;
	for (s = text->head; s; s = s->next) dk_tcookie->progress += 16 * s->len;
}

/* Clipped glyphs. MuPDF 1.24's stext device keeps every glyph a page
 * shows, also those its clip hides: a spreadsheet printout draws each
 * cell's text inside a clip of the cell's box, and a name longer than its
 * cell runs on, unseen, under the next cell's text ("Matthew C. &
 * Elizab" + "2165 Princeton Ave" read as "Elizab2165"). After each text
 * call, the characters it added to the stext page (always at its end) are
 * compared with the device's scissor (the box of the clips in force;
 * MuPDF's device keeps that stack whatever the device): a glyph whose
 * part inside is less than a quarter of its box, along its line or
 * across it, is marked hidden, one that crosses the scissor's edge along
 * its line is marked cut at that end. dk_fill leaves the hidden ones out
 * and trims the cut ones. The scissor of a clip path is the path's box,
 * exact for the rectangles spreadsheet exporters write and larger than
 * the clip for other shapes, so a glyph a reader can see is never
 * hidden. */
static __thread dk_page *dk_cpage;
static __thread fz_stext_page *dk_cstext;

typedef struct { fz_stext_block *b; fz_stext_line *l; fz_stext_char *c; } dk_tail;

/* dk_tail_now: the last character of the stext page (what it is at). */
static void dk_tail_now(dk_tail *t)
{
	t->b = dk_cstext ? dk_cstext->last_block : NULL;
	t->l = NULL;
	t->c = NULL;
	if (t->b && t->b->type == FZ_STEXT_BLOCK_TEXT) {
		t->l = t->b->u.t.last_line;
		if (t->l) t->c = t->l->last_char;
	}
}

static int dk_infinite(fz_rect r) { return r.x0 <= -1e8f || r.y0 <= -1e8f || r.x1 >= 1e8f || r.y1 >= 1e8f; }

/* dk_clip_of: the DK_CLIP_* of a glyph of quad q in scissor sc. */
static int dk_clip_of(const fz_quad *q, fz_rect sc)
{
	float x0 = q->ul.x, x1 = q->ul.x, y0 = q->ul.y, y1 = q->ul.y;
	float a0, a1, s0, s1, b0, b1, t0, t1, dx, dy, in;
	const fz_point *pt[3] = { &q->ur, &q->ll, &q->lr };
	int i, horiz;
	for (i = 0; i < 3; i++) {
		if (pt[i]->x < x0) x0 = pt[i]->x;
		if (pt[i]->x > x1) x1 = pt[i]->x;
		if (pt[i]->y < y0) y0 = pt[i]->y;
		if (pt[i]->y > y1) y1 = pt[i]->y;
	}
	if (x0 >= sc.x0 && x1 <= sc.x1 && y0 >= sc.y0 && y1 <= sc.y1) return 0;
	dx = q->ur.x - q->ul.x;
	dy = q->ur.y - q->ul.y;
	if (dx < 0) dx = -dx;
	if (dy < 0) dy = -dy;
	horiz = dx >= dy;
	/* a: along the line, b: across it */
	a0 = horiz ? x0 : y0; a1 = horiz ? x1 : y1; s0 = horiz ? sc.x0 : sc.y0; s1 = horiz ? sc.x1 : sc.y1;
	b0 = horiz ? y0 : x0; b1 = horiz ? y1 : x1; t0 = horiz ? sc.y0 : sc.x0; t1 = horiz ? sc.y1 : sc.x1;
	in = (b1 < t1 ? b1 : t1) - (b0 > t0 ? b0 : t0);
	if (in <= 0 || in < (b1 - b0) / 4) return DK_CLIP_HIDDEN;
	in = (a1 < s1 ? a1 : s1) - (a0 > s0 ? a0 : s0);
	if (a1 > a0 ? in < (a1 - a0) / 4 : (a0 < s0 || a0 > s1)) return DK_CLIP_HIDDEN;
	/* a clip a glyph's box overhangs by less than an eighth takes only
	 * its side bearing (frames drawn tight to their text, as layout
	 * programs write them) */
	return (s0 - a0 > (a1 - a0) / 8 ? DK_CLIP_CUT_START : 0) | (a1 - s1 > (a1 - a0) / 8 ? DK_CLIP_CUT_END : 0);
}

static void dk_mark(const fz_stext_char *ch, int clip, fz_rect sc)
{
	dk_page *p = dk_cpage;
	dk_clipmark *m;
	if (p->nmarks >= p->capmarks) {
		int nc = p->capmarks ? p->capmarks * 2 : 64;
		dk_clipmark *nm = realloc(p->marks, sizeof(dk_clipmark) * (size_t)nc);
		if (!nm) return; /* unmarked: the glyph stays as MuPDF made it */
		p->marks = nm; p->capmarks = nc;
	}
	m = &p->marks[p->nmarks++];
	m->ch = ch; m->clip = clip;
	m->x0 = sc.x0; m->y0 = sc.y0; m->x1 = sc.x1; m->y1 = sc.y1;
}

/* dk_mark_new marks the characters added to the stext page after t. */
static void dk_mark_new(fz_context *ctx, fz_device *dev, const dk_tail *t)
{
	fz_stext_block *b;
	fz_stext_line *l;
	fz_stext_char *c;
	fz_rect sc;
	if (!dk_cpage || !dk_cstext) return;
	sc = fz_device_current_scissor(ctx, dev);
	if (dk_infinite(sc)) return;
	for (b = t->b ? t->b : dk_cstext->first_block; b; b = b->next) {
		if (b->type != FZ_STEXT_BLOCK_TEXT) continue;
		for (l = (b == t->b && t->l) ? t->l : b->u.t.first_line; l; l = l->next) {
			for (c = (b == t->b && l == t->l && t->c) ? t->c->next : l->first_char; c; c = c->next) {
				int clip = dk_clip_of(&c->quad, sc);
				if (clip) dk_mark(c, clip, sc);
			}
		}
	}
}

static void dk_fill_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp)
{
	dk_tail t;
	dk_count_glyphs(text);
	dk_tail_now(&t);
	if (dk_orig_fill_text) dk_orig_fill_text(ctx, dev, text, ctm, cs, color, alpha, cp);
	dk_mark_new(ctx, dev, &t);
}

static void dk_stroke_text(fz_context *ctx, fz_device *dev, const fz_text *text, const fz_stroke_state *ss, fz_matrix ctm, fz_colorspace *cs, const float *color, float alpha, fz_color_params cp)
{
	dk_tail t;
	dk_count_glyphs(text);
	dk_tail_now(&t);
	if (dk_orig_stroke_text) dk_orig_stroke_text(ctx, dev, text, ss, ctm, cs, color, alpha, cp);
	dk_mark_new(ctx, dev, &t);
}

static void dk_ignore_text(fz_context *ctx, fz_device *dev, const fz_text *text, fz_matrix ctm)
{
	dk_tail t;
	dk_count_glyphs(text);
	dk_tail_now(&t);
	if (dk_orig_ignore_text) dk_orig_ignore_text(ctx, dev, text, ctm);
	dk_mark_new(ctx, dev, &t);
}

/* dk_hook_clip: the text hooks mark p's glyphs in st that the clip cuts
 * or hides (until dk_unhook_text). */
void dk_hook_clip(dk_page *p, fz_stext_page *st)
{
	dk_cpage = p;
	dk_cstext = st;
}

void dk_hook_text(fz_device *dev, fz_cookie *cookie)
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

static __thread dk_fill_shade_fn *dk_orig_fill_shade;
static __thread dk_fill_image_fn *dk_orig_fill_image;
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

void dk_hook_shade(fz_device *dev)
{
	dk_device_head *h = (dk_device_head *)dev;
	if (!h->fill_shade) return;
	dk_orig_fill_shade = h->fill_shade;
	dk_orig_fill_image = h->fill_image;
	h->fill_shade = dk_fill_shade;
}

void dk_unhook_text(void) { dk_tcookie = NULL; dk_cpage = NULL; dk_cstext = NULL; }
