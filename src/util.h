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
/* A growing NUL-terminated text on the heap (free(b.s) when done); the
 * PTX rewrites (emit/ptxfix.c, emit/traps.c) build their output in one. */
typedef struct {
	char *s;
	size_t len, cap;
} Buf;
void buf_add(Buf *b, const char *s, size_t n);
char *read_file(const char *path, size_t *len, size_t max);   /* NUL-terminated; NULL + errno on error */

/* Stable error codes: every user-facing error is printed as
 * "WHERE: error[OXnnnn]: message", the code naming its class, which tools
 * (the fuzz runner, scripts) may rely on; the message may change, the
 * class may not.  The one table of codes, each with its meaning (also in
 * man/oxidec.1, DIAGNOSTICS; mir-export's own codes are OX1xxx). */
#define DIAG_CODES(X) \
	X(OX_USAGE, 1, "command line: an unknown option, a bad value, a missing input or output") \
	X(OX_IO, 2, "a file cannot be read or written (input, output)") \
	X(OX_ENV, 3, "the installation lacks something: libdevice, libnvJitLink, an LLVM target") \
	X(OX_INPUT, 100, "the oxide-mir JSON is malformed or invalid (not what mir-export writes); " \
	  "the message gives the JSON path") \
	X(OX_UNSUPPORTED, 200, "a Rust construct oxidec does not support (yet); the message names it " \
	  "and its Rust source line") \
	X(OX_GPU, 300, "not possible on the GPU (heap allocation, std, formatting, ...)") \
	X(OX_BACKEND, 400, "LLVM, ptxas or nvJitLink rejected the output") \
	X(OX_INTERNAL, 900, "internal compiler error: a bug in oxidec (internal errors also abort)")
#define DIAG_ENUM(name, num, meaning) name = num,
typedef enum { DIAG_CODES(DIAG_ENUM) } DiagCode;
#undef DIAG_ENUM
const char *diag_code_meaning(DiagCode c);     /* NULL for a number not in the table */

/* User-facing errors are counted; drivers stop before the next stage when
 * diag_errors() is non-zero. */
void diag_error(DiagCode code, const char *where, const char *fmt, ...) PRINTF(3, 4);
void diag_verror(DiagCode code, const char *where, const char *fmt, va_list ap);
void diag_warning(const char *where, const char *fmt, ...) PRINTF(2, 3);
void diag_note(const char *where, const char *fmt, ...) PRINTF(2, 3);
int diag_errors(void);
void diag_reset(void);

#endif
