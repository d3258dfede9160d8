/* walk.c: one page through MuPDF's structured-text device into dk_page's
 * flat arrays (dk_page_load, dk_fill); the rest of the C side is in
 * doc.c (documents), log.c (messages), vectors.c (table rules),
 * devhooks.c (the device's text and shading calls) and tailed.c. */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "walk.h"
#include "walkint.h"

static const fz_matrix dk_identity = { 1, 0, 0, 1, 0, 0 };

#define GROW(arr, n, cap, type) do { \
	if ((n) >= (cap)) { \
		int nc_ = (cap) ? (cap) * 2 : 256; \
		type *na_ = realloc((arr), sizeof(type) * (size_t)nc_); \
		if (!na_) return -1; \
		(arr) = na_; (cap) = nc_; \
	} } while (0)

static float fmin4(float a, float b, float c, float e) { float m = a; if (b < m) m = b; if (c < m) m = c; if (e < m) m = e; return m; }
static float fmax4(float a, float b, float c, float e) { float m = a; if (b > m) m = b; if (c > m) m = c; if (e > m) m = e; return m; }

/* dk_mark_cmp orders clip marks by their character's address. */
static int dk_mark_cmp(const void *a, const void *b)
{
	const char *x = ((const dk_clipmark *)a)->ch, *y = ((const dk_clipmark *)b)->ch;
	return x < y ? -1 : x > y;
}

/* dk_mark_of: the clip mark of ch, or NULL (marks sorted). */
static const dk_clipmark *dk_mark_of(const dk_page *p, const fz_stext_char *ch)
{
	dk_clipmark key;
	key.ch = ch;
	return bsearch(&key, p->marks, (size_t)p->nmarks, sizeof key, dk_mark_cmp);
}

/* dk_between: the span between [a0,a1] and [b0,b1] (either order),
 * empty at a1 when they overlap. */
static void dk_between(float a0, float a1, float b0, float b1, float *o0, float *o1)
{
	if (b0 >= a1) { *o0 = a1; *o1 = b0; }
	else if (b1 <= a0) { *o0 = b1; *o1 = a0; }
	else { *o0 = *o1 = a1; }
}

/* dk_font_index: ch's font in p->fonts (added when new); -1 on
 * allocation failure. */
static int dk_font_index(dk_page *p, fz_font *f, fz_font **lastfont, int *lastidx)
{
	int i;
	if (f == *lastfont) return *lastidx;
	*lastidx = -1;
	for (i = 0; i < p->nfonts; i++)
		if (p->fonts[i] == f) { *lastidx = i; break; }
	if (*lastidx < 0) {
		GROW(p->fonts, p->nfonts, p->capfonts, fz_font *);
		p->fonts[p->nfonts] = f;
		*lastidx = p->nfonts++;
	}
	*lastfont = f;
	return *lastidx;
}

/* dk_fill walks an stext page into p's arrays; -1 on allocation failure.
 * With clip, characters whose box lies entirely outside the page box are
 * left out, and line and block boxes are the union of what is kept (what
 * FZ_STEXT_MEDIABOX_CLIP does, but on the character's box: MuPDF's flag
 * bounds every glyph's outline, which was ~7% of the instructions of a
 * text-layer extraction, for the same text on docket's corpus).
 * Characters the clip hides (p->marks, devhooks.c) are left out too, those
 * it cuts are trimmed to the scissor along their line, and where the clip
 * ends a run of glyphs and other text follows on the line (a cut glyph's
 * end, hidden glyphs between shown ones) a space is put between: the
 * text after it was drawn outside that clip, so it is not the same
 * word. */
static int dk_fill(dk_page *p, fz_stext_page *st, int clip)
{
	fz_stext_block *b;
	fz_stext_line *ln;
	fz_stext_char *ch;
	fz_font *lastfont = NULL;
	fz_rect mb = st->mediabox;
	int lastidx = -1, bounds = clip || p->nmarks > 0;

	if (p->nmarks > 1) qsort(p->marks, (size_t)p->nmarks, sizeof *p->marks, dk_mark_cmp);
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
			int horiz = fabsf(ln->dir.x) >= fabsf(ln->dir.y);
			int gap = 0, prevclip = 0;
			GROW(p->lines, p->nlines, p->caplines, dk_line);
			ol = &p->lines[p->nlines++];
			ol->wmode = ln->wmode; ol->dx = ln->dir.x; ol->dy = ln->dir.y;
			ol->x0 = ln->bbox.x0; ol->y0 = ln->bbox.y0; ol->x1 = ln->bbox.x1; ol->y1 = ln->bbox.y1;
			ol->first = p->nchars; ol->n = 0;
			for (ch = ln->first_char; ch; ch = ch->next) {
				dk_char *oc;
				const fz_quad *q = &ch->quad;
				const dk_clipmark *m = p->nmarks ? dk_mark_of(p, ch) : NULL;
				float x0 = fmin4(q->ul.x, q->ur.x, q->ll.x, q->lr.x);
				float x1 = fmax4(q->ul.x, q->ur.x, q->ll.x, q->lr.x);
				float y0 = fmin4(q->ul.y, q->ur.y, q->ll.y, q->lr.y);
				float y1 = fmax4(q->ul.y, q->ur.y, q->ll.y, q->lr.y);
				int cl = m ? m->clip : 0, font;
				if (clip && (x1 < mb.x0 || x0 > mb.x1 || y1 < mb.y0 || y0 > mb.y1))
					continue;
				if (cl & DK_CLIP_HIDDEN) {
					gap = ol->n > 0;
					if (ch->c > ' ' && ch->c != 0xa0) p->clip_hidden++;
					continue;
				}
				if (cl && horiz) {
					if (x0 < m->x0) x0 = m->x0;
					if (x1 > m->x1) x1 = m->x1;
				} else if (cl) {
					if (y0 < m->y0) y0 = m->y0;
					if (y1 > m->y1) y1 = m->y1;
				}
				font = dk_font_index(p, ch->font, &lastfont, &lastidx);
				if (font < 0) return -1;
				if (ol->n > 0 && ch->c != ' ' && p->chars[p->nchars - 1].c != ' ' &&
				    (gap || (prevclip & DK_CLIP_CUT_END))) {
					/* the space the clip's edge makes: from the glyph
					 * before to this one */
					dk_char *pc;
					GROW(p->chars, p->nchars, p->capchars, dk_char);
					pc = &p->chars[p->nchars - 1];
					oc = &p->chars[p->nchars++];
					*oc = *pc;
					oc->c = ' ';
					oc->clip = 0;
					if (horiz) dk_between(pc->x0, pc->x1, x0, x1, &oc->x0, &oc->x1);
					else dk_between(pc->y0, pc->y1, y0, y1, &oc->y0, &oc->y1);
					oc->ox = horiz ? oc->x0 : oc->ox;
					oc->oy = horiz ? oc->oy : oc->y0;
					p->lines[p->nlines - 1].n++;
				}
				gap = 0;
				prevclip = cl;
				GROW(p->chars, p->nchars, p->capchars, dk_char);
				oc = &p->chars[p->nchars++];
				ol = &p->lines[p->nlines - 1];
				if (bounds) {
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
				oc->clip = cl;
				oc->font = font;
			}
			ol = &p->lines[p->nlines - 1];
			if (ol->n == 0 && bounds) { p->nlines--; continue; }
			ob = &p->blocks[p->nblocks - 1];
			if (bounds) {
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
		if (ob->n == 0 && bounds) p->nblocks--;
	}
	return 0;
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
	p->nmarks = 0;
	p->lazy_images = 0;
	p->clip_hidden = 0;
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
	dk_images_mode = p->decode_images ? DK_IMAGES_DECODE : DK_IMAGES_LAZY;
	dk_images_lazy = 0;
	fz_try(ctx) {
		page = fz_load_page(ctx, d->doc, number);
		r = fz_bound_page(ctx, page);
		if (vectors) {
			st = fz_new_stext_page(ctx, r);
			dev = fz_new_stext_device(ctx, st, &opts);
			dk_hook_vectors(dev, p);
			dk_hook_text(dev, &p->cookie);
			dk_hook_clip(p, st);
			dk_hook_shade(dev);
			fz_run_page_contents(ctx, page, dev, dk_identity, &p->cookie);
			fz_close_device(ctx, dev);
		} else {
			/* fz_new_stext_page_from_page, with the cookie */
			st = fz_new_stext_page(ctx, r);
			dev = fz_new_stext_device(ctx, st, &opts);
			dk_hook_text(dev, &p->cookie);
			dk_hook_clip(p, st);
			dk_hook_shade(dev);
			fz_run_page_contents(ctx, page, dev, dk_identity, &p->cookie);
			fz_close_device(ctx, dev);
		}
	}
	fz_always(ctx) {
		p->lazy_images = dk_images_lazy;
		dk_images_mode = 0;
		dk_unhook_vectors();
		dk_unhook_text();
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
	free(p->chars); free(p->lines); free(p->blocks); free(p->fonts); free(p->vecs); free(p->marks);
	memset(p, 0, sizeof *p);
}
