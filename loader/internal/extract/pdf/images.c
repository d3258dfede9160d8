/* images.c: JPEG 2000 images left undecoded in a page walk, in front of
 * pdf_load_image (the link wraps it: see the LDFLAGS in layout.go).
 *
 * MuPDF 1.24 loads every image of a page's content when the interpreter
 * meets it (the Do operator), and while other formats are kept compressed
 * until their pixels are asked for, a JPEG 2000 (JPXDecode) image is
 * decoded right there (pdf-image.c, pdf_load_jpx). The walk's structured
 * text device only keeps an image's box and its size in pixels: on
 * docket's PDF corpus those decodes were 4.5 % of the MuPDF work of a
 * text-layer extraction (4 images in 2 files), for pixels nothing reads.
 * MuPDF has no way to load one undecoded: even fz_load_jpx_info, which
 * only answers the size, decodes the whole codestream.
 *
 * During dk_page_load (dk_images_mode set), a JPX image with no mask is
 * made here as MuPDF makes a compressed image, of type JPX, from the
 * stream's data (what MuPDF does with a JPEG 2000 file it opens as an
 * image, without reading the file's header: see dk_lazy_jpx), and
 * stored in the document's resource store as MuPDF stores its own; the
 * page's later uses and later pages take it from there. Should anything
 * ask for its pixels, MuPDF decodes them as a JPEG 2000 file's; nothing
 * in the walk asks. What is not decoded says nothing: OpenJPEG's messages
 * about a codestream are not among the page's, and an image whose data is
 * corrupt still has its block. dk_page.lazy_images counts the page's
 * undecoded images, so the Go side can walk again, with
 * dk_page.decode_images set, a page whose images decide what it becomes
 * (see imagesDecide in pdf.go): then each of its images is loaded
 * MuPDF's way, decoded, replacing the undecoded one in the store.
 *
 * Anything else (another format, an image with /SMask, /Mask or
 * /SMaskInData, data that is no JPEG 2000, any call outside a walk, such
 * as go-fitz rendering a page for OCR) is MuPDF's own pdf_load_image. */
#include <string.h>
#include "walk.h"
#include "walkint.h"

fz_image *__real_pdf_load_image(fz_context *ctx, pdf_document *doc, pdf_obj *dict);

/* Set by dk_page_load around a page's interpretation, on its thread. */
__thread int dk_images_mode;  /* 0: outside a walk; DK_IMAGES_LAZY or DK_IMAGES_DECODE */
__thread int dk_images_lazy;  /* undecoded images the page used */

/* dk_is_lazy: whether img is one made here (MuPDF's PDF loader never
 * makes a compressed JPX image: it decodes them). */
static int dk_is_lazy(fz_context *ctx, fz_image *img)
{
	return fz_compressed_image_type(ctx, img) == FZ_IMAGE_JPX;
}

/* dk_plain_jpx: a JPXDecode image with no mask of any kind. */
static int dk_plain_jpx(fz_context *ctx, pdf_obj *dict)
{
	return pdf_is_jpx_image(ctx, dict) &&
		!pdf_dict_gets(ctx, dict, "SMask") &&
		!pdf_dict_gets(ctx, dict, "Mask") &&
		!pdf_to_int(ctx, pdf_dict_gets(ctx, dict, "SMaskInData"));
}

/* dk_jpx_data: whether data starts as a JPEG 2000 file (the JP2
 * signature box) or a bare codestream (SOC then SIZ) does, what OpenJPEG
 * needs to decode it. */
static int dk_jpx_data(const unsigned char *p, size_t n)
{
	static const unsigned char jp2[12] = { 0, 0, 0, 0x0c, 'j', 'P', ' ', ' ', 0x0d, 0x0a, 0x87, 0x0a };
	static const unsigned char j2k[4] = { 0xff, 0x4f, 0xff, 0x51 };
	return (n >= sizeof jp2 && memcmp(p, jp2, sizeof jp2) == 0) ||
		(n >= sizeof j2k && memcmp(p, j2k, sizeof j2k) == 0);
}

/* dk_lazy_jpx: the undecoded image of dict, or NULL when there is none
 * to make (no positive /Width and /Height, data that is no JPEG 2000, a
 * colour space or stream MuPDF cannot load: left to MuPDF's loader,
 * which then fails or warns as it always did; the stream's own messages,
 * if reading it gave any, are then said twice). Its size is the
 * dictionary's /Width and /Height (MuPDF's decode takes the codestream's;
 * the two differ only in a faulty file, and the walk reads the size only
 * for ScanDPI, whose pages are walked again decoded); its colour space
 * the dictionary's, as MuPDF loads it, or RGB when it has none (MuPDF's
 * decode always gives one, and the interpreter draws an image without
 * one as a stencil). */
static fz_image *dk_lazy_jpx(fz_context *ctx, pdf_obj *dict)
{
	fz_buffer *buf = NULL;
	fz_colorspace *cs = NULL;
	fz_image *img = NULL;
	int w = pdf_to_int(ctx, pdf_dict_gets(ctx, dict, "Width"));
	int h = pdf_to_int(ctx, pdf_dict_gets(ctx, dict, "Height"));

	if (w <= 0 || h <= 0)
		return NULL;
	fz_var(buf);
	fz_var(cs);
	fz_var(img);
	fz_try(ctx) {
		pdf_obj *cso = pdf_dict_gets(ctx, dict, "ColorSpace");
		unsigned char *data;
		size_t n;
		buf = pdf_load_stream(ctx, dict);
		n = fz_buffer_storage(ctx, buf, &data);
		if (dk_jpx_data(data, n)) {
			fz_compressed_buffer *c;
			cs = cso ? pdf_load_colorspace(ctx, cso) : NULL;
			c = fz_new_compressed_buffer(ctx);
			c->params.type = FZ_IMAGE_JPX;
			c->buffer = buf;
			buf = NULL;
			/* c is the image's, even when making it fails */
			img = fz_new_image_from_compressed_buffer(ctx, w, h, 8, cs ? cs : fz_device_rgb(ctx), 96, 96, 0, 0, NULL, NULL, c, NULL);
		}
	}
	fz_always(ctx) {
		fz_drop_buffer(ctx, buf);
		fz_drop_colorspace(ctx, cs);
	}
	fz_catch(ctx) {
		img = NULL;
	}
	return img;
}

fz_image *__wrap_pdf_load_image(fz_context *ctx, pdf_document *doc, pdf_obj *dict)
{
	fz_image *img;
	if (!dk_images_mode)
		return __real_pdf_load_image(ctx, doc, dict);
	img = pdf_find_item(ctx, fz_drop_image_imp, dict);
	if (img) {
		if (!dk_is_lazy(ctx, img))
			return img;
		if (dk_images_mode == DK_IMAGES_LAZY) {
			dk_images_lazy++;
			return img;
		}
		fz_drop_image(ctx, img);
		pdf_remove_item(ctx, fz_drop_image_imp, dict);
		return __real_pdf_load_image(ctx, doc, dict);
	}
	if (dk_images_mode != DK_IMAGES_LAZY || !dk_plain_jpx(ctx, dict))
		return __real_pdf_load_image(ctx, doc, dict);
	img = dk_lazy_jpx(ctx, dict);
	if (!img)
		return __real_pdf_load_image(ctx, doc, dict);
	pdf_store_item(ctx, dict, img, fz_image_size(ctx, img));
	dk_images_lazy++;
	return img;
}
