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

void dk_unhook_text(void) { dk_tcookie = NULL; }
