/* tailed.h: a file followed by bytes of docket's own, as one MuPDF
 * stream (tailed.c). */
#ifndef DK_TAILED_H
#define DK_TAILED_H
#include "mupdf_min.h"

typedef struct dk_tailed dk_tailed;

dk_tailed *dk_tailed_new(const char *path, unsigned char *tail, size_t tlen, const char **why);
fz_stream *dk_tailed_stream(fz_context *ctx, dk_tailed *t);
void dk_tailed_drop(fz_context *ctx, void *state);

#endif
