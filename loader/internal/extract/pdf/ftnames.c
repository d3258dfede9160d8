/* ftnames.c: a glyph-name index for FreeType faces, in front of
 * FT_Get_Name_Index (the link wraps it: see the LDFLAGS in layout.go).
 *
 * MuPDF maps a simple font's encoding to glyphs by name: for each of up to
 * 256 codes it asks FT_Get_Name_Index, which for Type 1, CFF and TrueType
 * faces compares the name with every glyph's name in turn (a name the font
 * lacks, looked up again under its alternative spellings, costs a full scan
 * each time). On docket's PDF corpus that was ~7% of the instructions of a
 * text-layer extraction. Here a face's names are read once
 * (FT_Get_Glyph_Name, the same table the scans compare with) into a hash
 * table kept in the face's client slot (face->generic, freed by FreeType
 * with the face), and a lookup returns what the scan returns: the first
 * glyph with that name, 0 when none has it.
 *
 * Only faces whose drivers' name_index is that scan are indexed: Type 1,
 * CFF outside an SFNT container, TrueType. Any other face, a face whose
 * client slot is taken, or one with a name too long for the buffer, is
 * left to FreeType's own lookup. */
#include <stdlib.h>
#include <string.h>

/* The head of FreeType's FT_FaceRec (stable across FreeType 2.x). */
typedef struct {
	long num_faces, face_index, face_flags, style_flags, num_glyphs;
	char *family_name, *style_name;
	int num_fixed_sizes;
	void *available_sizes;
	int num_charmaps;
	void *charmaps;
	struct {
		void *data;
		void (*finalizer)(void *object);
	} generic;
} dk_ft_face_head;

#define DK_FT_FACE_FLAG_SFNT (1L << 3)
#define DK_FT_FACE_FLAG_GLYPH_NAMES (1L << 9)
#define DK_NAME_MAX 256

unsigned int __real_FT_Get_Name_Index(void *face, const char *name);
int FT_Get_Glyph_Name(void *face, unsigned int gid, void *buffer, unsigned int max);
const char *FT_Get_Font_Format(void *face);

typedef struct {
	unsigned int mask;  /* slots - 1 (a power of two minus one) */
	unsigned int *slot; /* gid + 1 of the first glyph with the name, 0: empty */
	unsigned int *off;  /* gid -> offset of its name in names */
	char *names;
	int bypass;         /* a name may have been cut: use FreeType's lookup */
} dk_names;

/* dk_names_on: whether lookups go through the index; dk_names_hits counts
 * the lookups it answered (tests compare both ways). */
int dk_names_on = 1;
long dk_names_hits;

static unsigned int dk_hash(const char *s)
{
	unsigned int h = 2166136261u;
	for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void dk_names_drop(dk_names *t)
{
	if (!t) return;
	free(t->slot);
	free(t->off);
	free(t->names);
	free(t);
}

static void dk_names_finalize(void *object)
{
	dk_ft_face_head *f = object;
	dk_names_drop(f->generic.data);
	f->generic.data = NULL;
	f->generic.finalizer = NULL;
}

static int dk_names_indexable(void *face)
{
	dk_ft_face_head *f = face;
	const char *fmt = FT_Get_Font_Format(face);
	if (!fmt || f->num_glyphs <= 0 || f->num_glyphs > 1 << 20) return 0;
	if (!(f->face_flags & DK_FT_FACE_FLAG_GLYPH_NAMES)) return 0;
	if (!strcmp(fmt, "Type 1") || !strcmp(fmt, "TrueType")) return 1;
	return !strcmp(fmt, "CFF") && !(f->face_flags & DK_FT_FACE_FLAG_SFNT);
}

/* dk_names_build reads the face's glyph names; NULL on failure. */
static dk_names *dk_names_build(void *face)
{
	dk_ft_face_head *f = face;
	unsigned int n = (unsigned int)f->num_glyphs, size = 16, gid;
	size_t used = 0, cap = (size_t)n * 8 + 64;
	char buf[DK_NAME_MAX];
	dk_names *t = calloc(1, sizeof *t);
	if (!t) return NULL;
	while (size < n * 2) size <<= 1;
	t->mask = size - 1;
	t->slot = calloc(size, sizeof *t->slot);
	t->off = malloc(n * sizeof *t->off);
	t->names = malloc(cap);
	if (!t->slot || !t->off || !t->names) { dk_names_drop(t); return NULL; }
	for (gid = 0; gid < n; gid++) {
		size_t len;
		unsigned int i;
		t->off[gid] = (unsigned int)-1;
		if (FT_Get_Glyph_Name(face, gid, buf, sizeof buf) != 0 || !buf[0])
			continue; /* no name: the scan skips it too */
		len = strlen(buf);
		if (len >= sizeof buf - 1) { t->bypass = 1; break; }
		if (used + len + 1 > cap) {
			char *nb;
			while (used + len + 1 > cap) cap *= 2;
			nb = realloc(t->names, cap);
			if (!nb) { dk_names_drop(t); return NULL; }
			t->names = nb;
		}
		memcpy(t->names + used, buf, len + 1);
		t->off[gid] = (unsigned int)used;
		used += len + 1;
		for (i = dk_hash(buf) & t->mask; t->slot[i]; i = (i + 1) & t->mask)
			if (!strcmp(t->names + t->off[t->slot[i] - 1], buf))
				break; /* an earlier glyph has the name: it wins */
		if (!t->slot[i]) t->slot[i] = gid + 1;
	}
	return t;
}

unsigned int __wrap_FT_Get_Name_Index(void *face, const char *name)
{
	dk_ft_face_head *f = face;
	dk_names *t;
	unsigned int i;
	if (!dk_names_on || !f || !name || !name[0])
		return __real_FT_Get_Name_Index(face, name);
	if (f->generic.finalizer == dk_names_finalize) {
		t = f->generic.data;
	} else {
		if (f->generic.data || f->generic.finalizer || !dk_names_indexable(face))
			return __real_FT_Get_Name_Index(face, name);
		t = dk_names_build(face);
		if (!t) return __real_FT_Get_Name_Index(face, name);
		f->generic.data = t;
		f->generic.finalizer = dk_names_finalize;
	}
	if (t->bypass) return __real_FT_Get_Name_Index(face, name);
	__atomic_fetch_add(&dk_names_hits, 1, __ATOMIC_RELAXED); /* workers read pages in parallel threads */
	for (i = dk_hash(name) & t->mask; t->slot[i]; i = (i + 1) & t->mask)
		if (!strcmp(t->names + t->off[t->slot[i] - 1], name))
			return t->slot[i] - 1;
	return 0;
}
