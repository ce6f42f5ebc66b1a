/* fe.h: private interface of stage 1, the only code that sees cJSON:
 * checked accessors that report errors with a JSON path, and the state
 * the parsers of the model (parse*.c) share. */
#ifndef OXIDEC_FE_H
#define OXIDEC_FE_H

#include <cjson/cJSON.h>

#include "oxmir.h"

/* map.c: (crate, name) -> pointer, O(1) */
typedef struct FeMap FeMap;
FeMap *fe_map_new(Arena *a);
void *fe_map_get(FeMap *m, const char *crate, const char *name);
void fe_map_put(FeMap *m, const char *crate, const char *name, void *val);

/* json.c: accessors; each reports "FILE: $.path: error[OX0100]: ..." on failure. */
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
bool json_u128(cJSON *v, U128 *out);    /* any 128-bit constant, two's complement; not reported */

/* One input file while it is parsed. */
typedef struct {
	OxInput *in;
	cJSON *root;
	OxType **types;          /* its type table: index -> linked type */
	uint32_t ntype;
	cJSON *allocs_json;
} PFile;

/* The whole parse. */
typedef struct {
	Arena *a;
	OxModule *m;
	PFile *files;
	uint32_t nfile;
	FeMap *types;            /* (crate, type name) -> TypeDef (parse_types.c) */
	FeMap *syms;             /* ("", symbol) -> FuncDef (parse.c) */
	FeMap *names;            /* (crate, function name) -> OxFunc: named constants */
	FeMap *statics;          /* ("", exported name of a Constant<T> static) -> PFile */
	int errs;                /* diag_errors() when the parse began */
	uint32_t types_cap, funcs_cap;
} PState;

/* A function and where it is defined (parse.c). */
typedef struct {
	OxFunc *fn;
	PFile *f;
	cJSON *j;
} FuncDef;

static inline bool ps_failed(PState *s)
{
	return diag_errors() > s->errs;
}

/* parse_types.c */
bool parse_types(PState *s, PFile *f);
OxType *parse_type_ref(JPath p, PFile *f, cJSON *obj, const char *key);
bool fe_same_json(PFile *fa, cJSON *a, PFile *fb, cJSON *b, bool ref);
bool ox_type_is_zst(const OxType *t);

/* parse.c: files, allocations, function headers */
bool parse_span(PState *s, PFile *f, JPath p, cJSON *span, Loc *out);
void ps_error_at(PState *s, DiagCode code, Loc loc, const OxFunc *fn, const char *fmt, ...) PRINTF(5, 6);
bool parse_relocs(PState *s, JPath p, cJSON *rs, OxReloc **out, uint32_t *n);
bool parse_hex(Arena *a, const char *s, uint8_t **out, uint64_t *n);
bool parse_input(PState *s);

/* parse_body.c */
bool parse_body(PState *s, PFile *f, cJSON *jfn, OxFunc *fn);

#endif
