/* util.h: arena allocation, growable arrays, string helpers and
 * diagnostics shared by every layer of oxidec. */
#ifndef OXIDEC_UTIL_H
#define OXIDEC_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PRINTF(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))
#define countof(a) (sizeof(a) / sizeof((a)[0]))

/* 128-bit arithmetic for Rust u128/i128 constants (GCC and Clang). */
__extension__ typedef unsigned __int128 uint128;

/* Internal compiler errors: a bug in oxidec, never a user error. */
#define die(...) die_at(__FILE__, __LINE__, __VA_ARGS__)
#define unreachable() die("unreachable")

/* util.c: arena */
typedef struct Arena Arena;
Arena *arena_new(void);
void arena_free(Arena *a);
void arena_reset(Arena *a);
void *arena_alloc(Arena *a, size_t n);          /* zeroed, 16-byte aligned */
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...) PRINTF(2, 3);
#define arena_new_array(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

/* Growable array in an arena: vec_push(a, &v, &n, &cap, x) */
void *vec_grow(Arena *a, void *data, uint32_t n, uint32_t *cap, size_t elem);
#define vec_push(a, vp, np, capp, x) do { \
	if (*(np) == *(capp)) *(vp) = vec_grow((a), *(vp), *(np), (capp), sizeof(**(vp))); \
	(*(vp))[(*(np))++] = (x); \
} while (0)

/* util.c: diagnostics */
void die_at(const char *file, int line, const char *fmt, ...) NORETURN PRINTF(3, 4);
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *read_file(const char *path, size_t *len, size_t max);   /* NUL-terminated; NULL + errno on error */

/* User-facing errors are counted; drivers stop before the next stage when
 * diag_errors() is non-zero. */
void diag_error(const char *where, const char *fmt, ...) PRINTF(2, 3);
void diag_verror(const char *where, const char *fmt, va_list ap);
void diag_warning(const char *where, const char *fmt, ...) PRINTF(2, 3);
void diag_note(const char *where, const char *fmt, ...) PRINTF(2, 3);
int diag_errors(void);
void diag_reset(void);

#endif
