/*
 * mupdf_min.h: the few MuPDF 1.24.9 declarations docket's PDF extractor
 * uses, copied from the headers that github.com/gen2brain/go-fitz v1.24.15
 * ships in include/mupdf (MuPDF is AGPL-3.0, Artifex Software).
 *
 * Why a copy: a cgo package can only add include paths relative to its own
 * folder (${SRCDIR}); go-fitz's headers live in the module cache, whose
 * location differs per machine. The static libraries come from go-fitz
 * itself (blank import), so these declarations must match MuPDF 1.24.9:
 * fz_new_context_imp checks DK_FZ_VERSION against the linked library and
 * refuses a mismatch, which the Go side reports as an error.
 */
#ifndef DK_MUPDF_MIN_H
#define DK_MUPDF_MIN_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#define DK_FZ_VERSION "1.24.9"

typedef struct fz_context fz_context;
typedef struct fz_document fz_document;
typedef struct fz_page fz_page;
typedef struct fz_stream fz_stream;
typedef struct fz_font fz_font;
typedef struct fz_image fz_image;
typedef struct fz_pool fz_pool;
typedef struct fz_colorspace fz_colorspace;

typedef struct { float x, y; } fz_point;
typedef struct { float x0, y0, x1, y1; } fz_rect;
typedef struct { float a, b, c, d, e, f; } fz_matrix;
typedef struct { fz_point ul, ur, ll, lr; } fz_quad;

/* system.h: on unix MuPDF uses sigsetjmp/siglongjmp. */
#if defined(__unix) || defined(__unix__) || defined(__APPLE__)
#define dk_setjmp(BUF) sigsetjmp(BUF, 0)
typedef sigjmp_buf fz_jmp_buf;
#else
#define dk_setjmp(BUF) setjmp(BUF)
typedef jmp_buf fz_jmp_buf;
#endif

/* context.h */
fz_jmp_buf *fz_push_try(fz_context *ctx);
int fz_do_try(fz_context *ctx);
int fz_do_always(fz_context *ctx);
int (fz_do_catch)(fz_context *ctx);
#define fz_try(ctx) if (!dk_setjmp(*fz_push_try(ctx))) if (fz_do_try(ctx)) do
#define fz_always(ctx) while (0); if (fz_do_always(ctx)) do
#define fz_catch(ctx) while (0); if ((fz_do_catch)(ctx))

void fz_var_imp(void *);
#define fz_var(var) fz_var_imp((void *)&(var))

const char *fz_caught_message(fz_context *ctx);
int fz_caught(fz_context *ctx);
enum { FZ_ERROR_NONE, FZ_ERROR_GENERIC, FZ_ERROR_SYSTEM, FZ_ERROR_LIBRARY, FZ_ERROR_ARGUMENT, FZ_ERROR_LIMIT, FZ_ERROR_UNSUPPORTED, FZ_ERROR_FORMAT, FZ_ERROR_SYNTAX, FZ_ERROR_TRYLATER, FZ_ERROR_ABORT, FZ_ERROR_REPAIRED };

fz_context *fz_new_context_imp(const void *alloc, const void *locks, size_t max_store, const char *version);
void fz_drop_context(fz_context *ctx);
typedef void (fz_error_cb)(void *user, const char *message);
typedef void (fz_warning_cb)(void *user, const char *message);
void fz_set_error_callback(fz_context *ctx, fz_error_cb *error_cb, void *user);
void fz_set_warning_callback(fz_context *ctx, fz_warning_cb *warning_cb, void *user);
void fz_flush_warnings(fz_context *ctx);
void fz_disable_icc(fz_context *ctx);

/* stream.h */
fz_stream *fz_open_memory(fz_context *ctx, const unsigned char *data, size_t len);
/* include/mupdf/fitz/stream.h: a stream of docket's own (dk_open's tail) */
typedef int (fz_stream_next_fn)(fz_context *ctx, fz_stream *stm, size_t max);
typedef void (fz_stream_drop_fn)(fz_context *ctx, void *state);
typedef void (fz_stream_seek_fn)(fz_context *ctx, fz_stream *stm, int64_t offset, int whence);
struct fz_stream {
	int refs;
	int error;
	int eof;
	int progressive;
	int64_t pos;
	int avail;
	int bits;
	unsigned char *rp, *wp;
	void *state;
	fz_stream_next_fn *next;
	fz_stream_drop_fn *drop;
	fz_stream_seek_fn *seek;
};
fz_stream *fz_new_stream(fz_context *ctx, void *state, fz_stream_next_fn *next, fz_stream_drop_fn *drop);
void fz_drop_stream(fz_context *ctx, fz_stream *stm);

/* document.h */
void fz_register_document_handlers(fz_context *ctx);
fz_document *fz_open_document(fz_context *ctx, const char *filename);
fz_document *fz_open_document_with_stream(fz_context *ctx, const char *magic, fz_stream *stream);
void fz_drop_document(fz_context *ctx, fz_document *doc);
int fz_needs_password(fz_context *ctx, fz_document *doc);
int fz_count_pages(fz_context *ctx, fz_document *doc);
fz_page *fz_load_page(fz_context *ctx, fz_document *doc, int number);
fz_rect fz_bound_page(fz_context *ctx, fz_page *page);
void fz_drop_page(fz_context *ctx, fz_page *page);
int fz_lookup_metadata(fz_context *ctx, fz_document *doc, const char *key, char *buf, int size);

/* font.h */
const char *fz_font_name(fz_context *ctx, fz_font *font);
int fz_font_is_bold(fz_context *ctx, fz_font *font);
int fz_font_is_italic(fz_context *ctx, fz_font *font);
int fz_font_is_monospaced(fz_context *ctx, fz_font *font);

/* structured-text.h */
typedef struct fz_stext_char fz_stext_char;
typedef struct fz_stext_line fz_stext_line;
typedef struct fz_stext_block fz_stext_block;
enum {
	FZ_STEXT_PRESERVE_LIGATURES = 1,
	FZ_STEXT_PRESERVE_WHITESPACE = 2,
	FZ_STEXT_PRESERVE_IMAGES = 4,
	FZ_STEXT_INHIBIT_SPACES = 8,
	FZ_STEXT_DEHYPHENATE = 16,
	FZ_STEXT_PRESERVE_SPANS = 32,
	FZ_STEXT_MEDIABOX_CLIP = 64,
	FZ_STEXT_USE_CID_FOR_UNKNOWN_UNICODE = 128
};
typedef struct {
	fz_pool *pool;
	fz_rect mediabox;
	fz_stext_block *first_block, *last_block;
} fz_stext_page;
enum { FZ_STEXT_BLOCK_TEXT = 0, FZ_STEXT_BLOCK_IMAGE = 1 };
/* The head of MuPDF 1.24's struct fz_image (fitz/image.h), up to its
 * colour space: an image's width and height (walk.c), whether it has a
 * colour space (images.c). */
typedef struct { int refs; void *drop; void *droppable; } dk_fz_storable;
typedef struct { dk_fz_storable storable; short store_key_refs; } dk_fz_key_storable;
typedef struct {
	dk_fz_key_storable key_storable;
	int w, h;
	uint8_t n;
	uint8_t bpc;
	unsigned int imagemask:1;
	unsigned int interpolate:1;
	unsigned int use_colorkey:1;
	unsigned int use_decode:1;
	unsigned int decoded:1;
	unsigned int scalable:1;
	uint8_t orientation;
	fz_image *mask;
	int xres;
	int yres;
	fz_colorspace *colorspace;
} dk_fz_image_head;
struct fz_stext_block {
	int type;
	fz_rect bbox;
	union {
		struct { fz_stext_line *first_line, *last_line; } t;
		struct { fz_matrix transform; fz_image *image; } i;
	} u;
	fz_stext_block *prev, *next;
};
struct fz_stext_line {
	int wmode;
	fz_point dir;
	fz_rect bbox;
	fz_stext_char *first_char, *last_char;
	fz_stext_line *prev, *next;
};
struct fz_stext_char {
	int c;
	int bidi;
	int color;
	fz_point origin;
	fz_quad quad;
	float size;
	fz_font *font;
	fz_stext_char *next;
};
typedef struct { int flags; float scale; } fz_stext_options;
void fz_drop_stext_page(fz_context *ctx, fz_stext_page *page);
/* util.h */
fz_stext_page *fz_new_stext_page_from_page(fz_context *ctx, fz_page *page, const fz_stext_options *options);

/* path.h, device.h, document.h: enough to collect a page's vector paths
 * (table rules) while the stext device runs. Only the head of fz_device
 * is declared: docket reads and replaces its fill_path/stroke_path. */
typedef struct fz_path fz_path;
typedef struct fz_device fz_device;
/* device.h: the layout of MuPDF 1.24's fz_cookie (progress counts the
 * content stream's tokens as they are interpreted; abort ends it). */
typedef struct fz_cookie {
	int abort;
	int progress;
	size_t progress_max;
	int errors;
	int incomplete;
} fz_cookie;
typedef struct { unsigned char ri, bp, op, opm; } fz_color_params;
typedef struct {
	int refs;
	int start_cap, dash_cap, end_cap;
	int linejoin;
	float linewidth;
	float miterlimit;
	float dash_phase;
	int dash_len;
	float dash_list[32];
} fz_stroke_state;
typedef struct {
	void (*moveto)(fz_context *ctx, void *arg, float x, float y);
	void (*lineto)(fz_context *ctx, void *arg, float x, float y);
	void (*curveto)(fz_context *ctx, void *arg, float x1, float y1, float x2, float y2, float x3, float y3);
	void (*closepath)(fz_context *ctx, void *arg);
	void (*quadto)(fz_context *ctx, void *arg, float x1, float y1, float x2, float y2);
	void (*curvetov)(fz_context *ctx, void *arg, float x2, float y2, float x3, float y3);
	void (*curvetoy)(fz_context *ctx, void *arg, float x1, float y1, float x3, float y3);
	void (*rectto)(fz_context *ctx, void *arg, float x1, float y1, float x2, float y2);
} fz_path_walker;
void fz_walk_path(fz_context *ctx, const fz_path *path, const fz_path_walker *walker, void *arg);
/* text.h: fz_text and its spans, as MuPDF 1.24 declares them. */
typedef struct fz_text_item fz_text_item;
typedef struct fz_text_span {
	fz_font *font;
	fz_matrix trm;
	unsigned wmode : 1;
	unsigned bidi_level : 7;
	unsigned markup_dir : 2;
	unsigned language : 15;
	int len, cap;
	fz_text_item *items;
	struct fz_text_span *next;
} fz_text_span;
typedef struct {
	int refs;
	fz_text_span *head, *tail;
} fz_text;
typedef void (dk_fill_text_fn)(fz_context *, fz_device *, const fz_text *, fz_matrix, fz_colorspace *, const float *color, float alpha, fz_color_params);
typedef void (dk_stroke_text_fn)(fz_context *, fz_device *, const fz_text *, const fz_stroke_state *, fz_matrix, fz_colorspace *, const float *color, float alpha, fz_color_params);
typedef void (dk_ignore_text_fn)(fz_context *, fz_device *, const fz_text *, fz_matrix);
typedef void (dk_fill_path_fn)(fz_context *, fz_device *, const fz_path *, int even_odd, fz_matrix, fz_colorspace *, const float *color, float alpha, fz_color_params);
typedef void (dk_stroke_path_fn)(fz_context *, fz_device *, const fz_path *, const fz_stroke_state *, fz_matrix, fz_colorspace *, const float *color, float alpha, fz_color_params);
/* shade.h, pixmap.h, image.h, geometry.h, color.h: enough to make the
 * image block of a shading without painting it (walk.c dk_fill_shade).
 * The head of MuPDF 1.24's struct fz_shade, up to its type. */
typedef struct fz_shade fz_shade;
typedef struct fz_pixmap fz_pixmap;
typedef struct fz_separations fz_separations;
typedef struct { int x0, y0, x1, y1; } fz_irect;
typedef struct {
	dk_fz_storable storable;
	fz_rect bbox;
	fz_colorspace *colorspace;
	fz_matrix matrix;
	int use_background;
	float background[32]; /* FZ_MAX_COLORS */
	int function_stride;
	float *function;
	int type;
} dk_fz_shade_head;
enum { FZ_FUNCTION_BASED = 1, FZ_LINEAR = 2, FZ_RADIAL = 3, FZ_MESH_TYPE4 = 4 };
typedef void (dk_fill_shade_fn)(fz_context *, fz_device *, fz_shade *, fz_matrix, float alpha, fz_color_params);
typedef void (dk_fill_image_fn)(fz_context *, fz_device *, fz_image *, fz_matrix, float alpha, fz_color_params);
fz_rect fz_bound_shade(fz_context *ctx, fz_shade *shade, fz_matrix ctm);
fz_rect fz_device_current_scissor(fz_context *ctx, fz_device *dev);
fz_rect fz_intersect_rect(fz_rect a, fz_rect b);
fz_irect fz_irect_from_rect(fz_rect rect);
fz_colorspace *fz_device_rgb(fz_context *ctx);
fz_pixmap *fz_new_pixmap_with_bbox_and_data(fz_context *ctx, fz_colorspace *colorspace, fz_irect rect, fz_separations *seps, int alpha, unsigned char *samples);
int fz_pixmap_width(fz_context *ctx, const fz_pixmap *pix);
int fz_pixmap_height(fz_context *ctx, const fz_pixmap *pix);
int fz_pixmap_x(fz_context *ctx, const fz_pixmap *pix);
int fz_pixmap_y(fz_context *ctx, const fz_pixmap *pix);
void fz_drop_pixmap(fz_context *ctx, fz_pixmap *pix);
fz_image *fz_new_image_from_pixmap(fz_context *ctx, fz_pixmap *pixmap, fz_image *mask);
void fz_drop_image(fz_context *ctx, fz_image *image);
void fz_rethrow(fz_context *ctx);
typedef struct {
	int refs;
	int hints;
	int flags;
	void (*close_device)(fz_context *, fz_device *);
	void (*drop_device)(fz_context *, fz_device *);
	dk_fill_path_fn *fill_path;
	dk_stroke_path_fn *stroke_path;
	void *clip_path;
	void *clip_stroke_path;
	dk_fill_text_fn *fill_text;
	dk_stroke_text_fn *stroke_text;
	void *clip_text;
	void *clip_stroke_text;
	dk_ignore_text_fn *ignore_text;
	dk_fill_shade_fn *fill_shade;
	dk_fill_image_fn *fill_image;
	/* ... more members follow in MuPDF; never touched here */
} dk_device_head;
fz_stext_page *fz_new_stext_page(fz_context *ctx, fz_rect mediabox);
fz_device *fz_new_stext_device(fz_context *ctx, fz_stext_page *page, const fz_stext_options *options);
void fz_run_page_contents(fz_context *ctx, fz_page *page, fz_device *dev, fz_matrix transform, fz_cookie *cookie);
void fz_close_device(fz_context *ctx, fz_device *dev);
void fz_drop_device(fz_context *ctx, fz_device *dev);
void fz_rethrowFL(fz_context *ctx, const char *file, int line);
/* pdf/document.h, pdf/object.h: just enough to edit the in-memory catalog
 * (walk.c dk_drop_structure). */
typedef struct pdf_document pdf_document;
typedef struct pdf_obj pdf_obj;
pdf_document *pdf_specifics(fz_context *ctx, fz_document *doc);
pdf_obj *pdf_trailer(fz_context *ctx, pdf_document *doc);
pdf_obj *pdf_dict_gets(fz_context *ctx, pdf_obj *dict, const char *key);
void pdf_dict_dels(fz_context *ctx, pdf_obj *dict, const char *key);
/* pdf/page.h, pdf/object.h, pdf/xref.h: a page's content streams
 * (walk.c dk_contents_over). */
pdf_obj *pdf_lookup_page_obj(fz_context *ctx, pdf_document *doc, int needle);
int pdf_is_array(fz_context *ctx, pdf_obj *obj);
int pdf_array_len(fz_context *ctx, pdf_obj *array);
pdf_obj *pdf_array_get(fz_context *ctx, pdf_obj *array, int i);
int pdf_is_stream(fz_context *ctx, pdf_obj *obj);
fz_stream *pdf_open_stream(fz_context *ctx, pdf_obj *ref);
fz_stream *pdf_open_raw_stream(fz_context *ctx, pdf_obj *ref);
int pdf_is_name(fz_context *ctx, pdf_obj *obj);
const char *pdf_to_name(fz_context *ctx, pdf_obj *obj);
size_t fz_skip(fz_context *ctx, fz_stream *stm, size_t len);
/* image.h, compressed-buffer.h, buffer.h, store.h, pdf/resource.h,
 * pdf/object.h, pdf/image.h: an image loaded without decoding it
 * (images.c). */
typedef struct fz_buffer fz_buffer;
typedef struct fz_storable fz_storable;
typedef struct fz_jbig2_globals fz_jbig2_globals;
typedef void (fz_store_drop_fn)(fz_context *, fz_storable *);
enum { FZ_IMAGE_JPX = 10 }; /* compressed-buffer.h's FZ_IMAGE_* enumeration */
typedef struct
{
	int type;
	union {
		struct {
			int color_transform; /* Use -1 for unset */
			int invert_cmyk; /* Use 1 for standalone JPEG files */
		} jpeg;
		struct {
			int smask_in_data;
		} jpx;
		struct {
			fz_jbig2_globals *globals;
			int embedded;
		} jbig2;
		struct {
			int columns;
			int rows;
			int k;
			int end_of_line;
			int encoded_byte_align;
			int end_of_block;
			int black_is_1;
			int damaged_rows_before_error;
		} fax;
		struct
		{
			int columns;
			int colors;
			int predictor;
			int bpc;
		}
		flate;
		struct
		{
			int columns;
			int colors;
			int predictor;
			int bpc;
			int early_change;
		} lzw;
	} u;
} fz_compression_params;
typedef struct
{
	int refs;
	fz_compression_params params;
	fz_buffer *buffer;
} fz_compressed_buffer;
fz_compressed_buffer *fz_new_compressed_buffer(fz_context *ctx);
fz_image *fz_new_image_from_compressed_buffer(fz_context *ctx, int w, int h, int bpc, fz_colorspace *colorspace, int xres, int yres, int interpolate, int imagemask, const float *decode, const int *colorkey, fz_compressed_buffer *buffer, fz_image *mask);
int fz_compressed_image_type(fz_context *ctx, fz_image *image);
size_t fz_buffer_storage(fz_context *ctx, fz_buffer *buf, unsigned char **datap);
fz_colorspace *pdf_load_colorspace(fz_context *ctx, pdf_obj *obj);
void fz_drop_colorspace(fz_context *ctx, fz_colorspace *colorspace);
size_t fz_image_size(fz_context *ctx, fz_image *im);
void fz_drop_image_imp(fz_context *ctx, fz_storable *image);
void fz_drop_buffer(fz_context *ctx, fz_buffer *buf);
void *pdf_find_item(fz_context *ctx, fz_store_drop_fn *drop, pdf_obj *key);
void pdf_store_item(fz_context *ctx, pdf_obj *key, void *val, size_t itemsize);
void pdf_remove_item(fz_context *ctx, fz_store_drop_fn *drop, pdf_obj *key);
fz_buffer *pdf_load_stream(fz_context *ctx, pdf_obj *ref);
int pdf_is_jpx_image(fz_context *ctx, pdf_obj *dict);
int pdf_to_int(fz_context *ctx, pdf_obj *obj);
/* color.h */
enum { FZ_COLORSPACE_NONE, FZ_COLORSPACE_GRAY, FZ_COLORSPACE_RGB, FZ_COLORSPACE_BGR, FZ_COLORSPACE_CMYK, FZ_COLORSPACE_LAB, FZ_COLORSPACE_INDEXED, FZ_COLORSPACE_SEPARATION };
int fz_colorspace_type(fz_context *ctx, fz_colorspace *cs);
int fz_colorspace_n(fz_context *ctx, fz_colorspace *cs);

#endif
