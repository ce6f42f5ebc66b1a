/* util.c: arena allocator, growable arrays and diagnostics. */
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Chunk {
	struct Chunk *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
} Chunk;

struct Arena {
	Chunk *head;
};

enum { CHUNK_SIZE = 64 * 1024 };

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void buf_add(Buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

Arena *arena_new(void)
{
	Arena *a = xmalloc(sizeof *a);
	a->head = NULL;
	return a;
}

void arena_reset(Arena *a)
{
	Chunk *c = a->head, *next;
	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
}

void arena_free(Arena *a)
{
	if (!a)
		return;
	arena_reset(a);
	free(a);
}

void *arena_alloc(Arena *a, size_t n)
{
	Chunk *c = a->head;
	n = (n + 15) & ~(size_t)15;
	if (!c || c->used + n > c->cap) {
		size_t cap = n > CHUNK_SIZE ? n : CHUNK_SIZE;
		c = xmalloc(sizeof *c + cap);
		c->used = 0;
		c->cap = cap;
		c->next = a->head;
		a->head = c;
	}
	void *p = c->data + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

char *arena_strdup(Arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(arena_alloc(a, n), s, n);
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = arena_alloc(a, (size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return s;
}

void *vec_grow(Arena *a, void *data, uint32_t n, uint32_t *cap, size_t elem)
{
	uint32_t ncap = *cap ? *cap * 2 : 4;
	void *p = arena_alloc(a, elem * ncap);
	if (n)
		memcpy(p, data, elem * n);
	*cap = ncap;
	return p;
}

/* The whole file, NUL-terminated; NULL with errno set on error, EFBIG
 * when it has more than max bytes (checked while reading, so /dev/zero or
 * a pipe that never ends costs at most max bytes). */
char *read_file(const char *path, size_t *len, size_t max)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0 || n > max)
			break;
		if (cap - n - 1 == 0) {     /* never more than max + 2 bytes */
			cap = cap > max / 2 ? max + 2 : cap * 2;
			buf = xrealloc(buf, cap);
		}
	}
	int err = ferror(f) ? errno : n > max ? EFBIG : 0;
	fclose(f);
	if (err) {
		free(buf);
		errno = err;
		return NULL;
	}
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

void die_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "oxidec: error[OX%04d]: internal error at %s:%d: ", OX_INTERNAL, file, line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

static int nerrors;

#define DIAG_MEANING(name, num, meaning) case name: return meaning;
const char *diag_code_meaning(DiagCode c)
{
	switch (c) {
	DIAG_CODES(DIAG_MEANING)
	}
	return NULL;
}
#undef DIAG_MEANING

/* "WHERE: KIND: message", KIND "error[OXnnnn]" for errors. */
static void vdiag(const char *kind, const char *where, const char *fmt, va_list ap)
{
	if (where && *where)
		fprintf(stderr, "%s: %s: ", where, kind);
	else
		fprintf(stderr, "oxidec: %s: ", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void diag_verror(DiagCode code, const char *where, const char *fmt, va_list ap)
{
	char kind[32];
	nerrors++;
	snprintf(kind, sizeof kind, "error[OX%04d]", (int)code);
	vdiag(kind, where, fmt, ap);
}

void diag_error(DiagCode code, const char *where, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(code, where, fmt, ap);
	va_end(ap);
}

void diag_warning(const char *where, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag("warning", where, fmt, ap);
	va_end(ap);
}

void diag_note(const char *where, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag("note", where, fmt, ap);
	va_end(ap);
}

int diag_errors(void)
{
	return nerrors;
}

void diag_reset(void)
{
	nerrors = 0;
}
