/* vectors.c: the page's table rules from its vector paths (dk_page.vecs). */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "walk.h"
#include "walkint.h"

/* The stext page of MuPDF 1.24 holds no paths. When vectors are asked
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

/* dk_hook_vectors: the collectors above take dev's paths for p until
 * dk_unhook_vectors. */
void dk_hook_vectors(fz_device *dev, dk_page *p)
{
	dk_device_head *h = (dk_device_head *)dev;
	dk_orig_fill = h->fill_path;
	dk_orig_stroke = h->stroke_path;
	h->fill_path = dk_vec_fill;
	h->stroke_path = dk_vec_stroke;
	dk_vpage = p;
}

void dk_unhook_vectors(void) { dk_vpage = NULL; }
