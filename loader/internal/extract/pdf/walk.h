/* walk.h: docket's C side of the MuPDF structured-text walk. Every MuPDF
 * call that can throw is wrapped here in fz_try/fz_catch, so no longjmp ever
 * crosses a Go frame. A page is returned as flat arrays (chars, lines,
 * blocks, fonts) so Go makes one cgo call per page, not one per character. */
#ifndef DK_WALK_H
#define DK_WALK_H
#include "mupdf_min.h"

typedef struct {
	int c;          /* Unicode code point */
	int font;       /* index into dk_page.fonts */
	float x0, y0, x1, y1; /* bbox of the char quad */
	float ox, oy;   /* origin (pen position on the baseline) */
	float size;     /* font size in points */
	int clip;       /* DK_CLIP_*: how the clip in force when it was drawn cuts it */
} dk_char;

/* dk_char.clip. A glyph partly outside the clip (the scissor: the box of
 * the clip paths in force, devhooks.c) is cut at its start or its end
 * along its line, and its box is trimmed to what shows; glyphs that do
 * not show (DK_CLIP_HIDDEN) are never in dk_page.chars. */
enum { DK_CLIP_CUT_START = 1, DK_CLIP_CUT_END = 2, DK_CLIP_HIDDEN = 4 };

/* dk_clipmark: a glyph of the stext page that the clip cuts or hides,
 * and the scissor it was drawn in (devhooks.c). */
typedef struct {
	const void *ch; /* the fz_stext_char */
	int clip;       /* DK_CLIP_* */
	float x0, y0, x1, y1; /* the scissor */
} dk_clipmark;

typedef struct {
	int first, n;   /* range in chars */
	int wmode;
	float dx, dy;   /* baseline direction */
	float x0, y0, x1, y1;
} dk_line;

typedef struct {
	int type;       /* FZ_STEXT_BLOCK_TEXT or FZ_STEXT_BLOCK_IMAGE */
	int first, n;   /* range in lines (text blocks) */
	float x0, y0, x1, y1;
	int iw, ih;     /* image blocks: the image's size in pixels */
} dk_block;

/* dk_vec: one vector item (page coordinates): a stroked axis-aligned
 * segment widened by its line width (fill 0), the box of a filled
 * subpath made only of straight edges (fill 1), or the box of a path
 * with slanted or curved parts, as in charts (fill 2). */
typedef struct {
	float x0, y0, x1, y1;
	int fill;
} dk_vec;

/* DK_CLASS_MAX: at least as many as damage.go's damageClasses
 * (TestDamageClassesFitTheLog). */
#define DK_CLASS_MAX 32

typedef struct {
	char *buf;
	size_t len, cap;
	int count, dropped; /* dropped: past the cap, not kept */
	/* Past the cap, the messages in one of damage.go's classes, by
	 * class in the order first met: the class and how many (the first
	 * is kept in buf). */
	int nclass;
	int cls[DK_CLASS_MAX], ncls[DK_CLASS_MAX];
} dk_log;

typedef struct {
	fz_context *ctx;
	fz_document *doc;
	fz_stream *stm;
	dk_log log;
	char err[512];
} dk_doc;

typedef struct {
	dk_char *chars; int nchars, capchars;
	dk_line *lines; int nlines, caplines;
	dk_block *blocks; int nblocks, capblocks;
	fz_font **fonts; int nfonts, capfonts;
	dk_vec *vecs; int nvecs, capvecs; /* only with vectors set */
	dk_clipmark *marks; int nmarks, capmarks; /* glyphs the clip cuts or hides */
	float px0, py0, px1, py1; /* fz_bound_page */
	fz_stext_page *stext;     /* kept until dk_page_release */
	fz_cookie cookie;         /* set by the caller; progress read after */
	int content_over;         /* the content streams inflate past max_content */
	int decode_images;        /* set by the caller: JPEG 2000 images decoded as MuPDF loads them (images.c) */
	int lazy_images;          /* JPEG 2000 images the page used undecoded (images.c) */
	int clip_hidden;          /* characters other than spaces the clip hid (DK_CLIP_HIDDEN: not in chars) */
	char err[512];
} dk_page;

/* dk_ctx_new: a context with document handlers registered, or NULL when
 * the linked MuPDF is not the version of mupdf_min.h. Contexts are reused
 * across documents (one at a time) so fonts and FreeType stay loaded. */
fz_context *dk_ctx_new(size_t max_store);
void dk_ctx_drop(fz_context *ctx);
/* dk_open: 0 ok, 2 cannot open (err set), 3 needs password. data may be
 * NULL (then path is opened). */
int dk_open(dk_doc *d, fz_context *ctx, const char *path, const unsigned char *data, size_t len, const char *magic);
/* dk_open_tail: dk_open of the PDF at path as if tail (malloc'd; the
 * document owns it from then on, even when opening fails) followed its
 * bytes: the file is read through a window, never held whole. */
int dk_open_tail(dk_doc *d, fz_context *ctx, const char *path, unsigned char *tail, size_t tlen);
void dk_close(dk_doc *d);
int dk_count_pages(dk_doc *d); /* -1 on error (err set) */
int dk_metadata(dk_doc *d, const char *key, char *buf, int size);
/* dk_page_load: 0 ok, -1 error (p->err set). With vectors, the page's
 * straight stroked segments and filled straight-edged shapes go to
 * p->vecs (table rules). */
int dk_page_load(dk_doc *d, int number, int flags, int vectors, size_t max_content, dk_page *p);
void dk_page_release(dk_doc *d, dk_page *p);
void dk_page_free(dk_page *p);
const char *dk_font_name(dk_doc *d, fz_font *f);
int dk_font_flags(dk_doc *d, fz_font *f); /* 1 bold, 2 italic, 4 mono */
void dk_log_reset(dk_log *l);
#endif
