/* doc.c: MuPDF contexts and documents: opening (from a path, from memory,
 * or a file with docket's rebuilt page tree after it), closing, page
 * count, metadata and font facts. */
#include <stdlib.h>
#include <string.h>
#include "walk.h"
#include "walkint.h"
#include "tailed.h"

void dk_seterr(char *dst, const char *msg)
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

const char *dk_font_name(dk_doc *d, fz_font *f) { return fz_font_name(d->ctx, f); }

int dk_font_flags(dk_doc *d, fz_font *f)
{
	int fl = 0;
	if (fz_font_is_bold(d->ctx, f)) fl |= 1;
	if (fz_font_is_italic(d->ctx, f)) fl |= 2;
	if (fz_font_is_monospaced(d->ctx, f)) fl |= 4;
	return fl;
}
