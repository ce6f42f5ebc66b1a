/* fe.h: private interface of the JSON frontend: the parsed files and
 * checked accessors that report errors with a JSON path. */
#ifndef OXIDEC_FE_H
#define OXIDEC_FE_H

#include <cjson/cJSON.h>

#include "frontend.h"

enum { OXIDE_MIR_VERSION = 1 };
#define FE_MAX_TYPE_SIZE (1ull << 40)

typedef struct FeInput FeInput;

typedef struct {
	FeInput *in;
	const char *path;    /* file name for diagnostics */
	const char *crate;   /* "crate" of the top level, else the path: keys its items */
	cJSON *root;
	uint32_t file_base;  /* index of this file's files[0] in Module.files */
	RType **types;       /* this file's type table, mapped into the module */
	uint32_t ntype;
	uint32_t index;      /* position among the inputs */
} FeFile;

/* map.c: (crate, name) -> pointer, O(1) */
typedef struct FeMap FeMap;

struct FeInput {
	FeFile *files;
	int nfile;
	FeMap *types;    /* (crate, type name) -> types.c's TypeDef */
	FeMap *funcs;    /* (crate, function name) -> Func: named constants */
	FeMap *syms;     /* ("", symbol) -> FuncDef */
	FeMap *statics;  /* ("", exported name of a Constant<T> static) -> FeFile */
};

/* A function and where it is defined (func.c). */
typedef struct {
	Func *fn;
	FeFile *f;
	cJSON *j;
	const char *path;
} FuncDef;

Func *fe_func(FeFile *f, const char *symbol);
FeMap *fe_map_new(Arena *a);
void *fe_map_get(FeMap *m, const char *crate, const char *name);
void fe_map_put(FeMap *m, const char *crate, const char *name, void *val);

/* A position in the input for diagnostics: the JSON path, and the Rust
 * span when one is known. */
typedef struct {
	FeFile *file;
	const char *path;
} JPath;

/* json.c: accessors; each reports "FILE: $.path: error: ..." on failure. */
JPath jpath_field(Arena *a, JPath p, const char *key);
JPath jpath_index(Arena *a, JPath p, int i);
void fe_error(JPath p, const char *fmt, ...) PRINTF(2, 3);
cJSON *json_get(JPath p, cJSON *obj, const char *key, int type);   /* cJSON_Object etc, or 0 for any */
cJSON *json_get_opt(cJSON *obj, const char *key);
const char *json_str(JPath p, cJSON *obj, const char *key);
bool json_bool(JPath p, cJSON *obj, const char *key);
/* Integers: exact (a JSON number of at most 2^53, or a decimal/0x-hex
 * string), in range, else an error naming $.path.key and the value.  The
 * _value forms check a value already fetched (key: its field name for the
 * message, or NULL when p names the value). */
bool json_int_range(JPath p, const char *key, cJSON *v, int64_t lo, uint64_t hi, int64_t *out);
int64_t json_int(JPath p, cJSON *obj, const char *key);
uint32_t json_u32(JPath p, cJSON *obj, const char *key);
uint64_t json_u64(JPath p, cJSON *obj, const char *key);
uint32_t json_align(JPath p, cJSON *obj, const char *key);     /* a power of two */
bool json_index(JPath p, cJSON *obj, const char *key, uint32_t n, uint32_t *out);   /* 0..n-1 */
bool json_index_value(JPath p, const char *key, cJSON *v, uint32_t n, uint32_t *out);
bool json_u128(JPath p, cJSON *v, U128 *out);    /* any 128-bit constant, two's complement; not reported */

/* types.c */
bool fe_import_types(Module *m, FeFile *f, Arena *a);
RType *fe_type(JPath p, FeFile *f, cJSON *obj, const char *key);
bool fe_same_json(FeFile *fa, cJSON *a, FeFile *fb, cJSON *b, bool ref);

#endif
