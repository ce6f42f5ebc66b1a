/* fe.h: private interface of the JSON frontend: the parsed files and
 * checked accessors that report errors with a JSON path. */
#ifndef OXIDEC_FE_H
#define OXIDEC_FE_H

#include <cjson/cJSON.h>

#include "frontend.h"

enum { OXIDE_MIR_VERSION = 1 };

typedef struct {
	const char *path;    /* file name for diagnostics */
	cJSON *root;
	uint32_t file_base;  /* index of this file's files[0] in Module.files */
	RType **types;       /* this file's type table, mapped into the module */
	uint32_t ntype;
	uint32_t index;      /* position among the inputs */
} FeFile;

struct FeInput {
	FeFile *files;
	int nfile;
};

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
int64_t json_int(JPath p, cJSON *obj, const char *key);
bool json_bool(JPath p, cJSON *obj, const char *key);
bool json_u128(JPath p, cJSON *v, U128 *out);    /* decimal/hex string, or number */
uint64_t json_u64(JPath p, cJSON *obj, const char *key);

/* types.c */
bool fe_import_types(Module *m, FeFile *f, Arena *a);
RType *fe_type(JPath p, FeFile *f, cJSON *obj, const char *key);

#endif
