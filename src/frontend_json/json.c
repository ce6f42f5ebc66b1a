/* json.c: stage 1 — read oxide-mir JSON files with cJSON, check the format
 * header and version, and offer checked accessors whose errors name the
 * file and the JSON path ("k.mir.json: $.functions[3].blocks[2]: error"). */
#include "fe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

JPath jpath_field(Arena *a, JPath p, const char *key)
{
	JPath r = { p.file, arena_printf(a, "%s.%s", p.path, key) };
	return r;
}

JPath jpath_index(Arena *a, JPath p, int i)
{
	JPath r = { p.file, arena_printf(a, "%s[%d]", p.path, i) };
	return r;
}

void fe_error(JPath p, const char *fmt, ...)
{
	char where[1024];
	va_list ap;
	snprintf(where, sizeof where, "%s: %s", p.file ? p.file->path : "oxidec", p.path);
	va_start(ap, fmt);
	diag_verror(where, fmt, ap);
	va_end(ap);
}

static const char *json_type_name(int type)
{
	switch (type) {
	case cJSON_Object: return "an object";
	case cJSON_Array: return "an array";
	case cJSON_String: return "a string";
	case cJSON_Number: return "a number";
	case cJSON_True: case cJSON_False: return "a boolean";
	default: return "a value";
	}
}

cJSON *json_get_opt(cJSON *obj, const char *key)
{
	cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
	return cJSON_IsNull(v) ? NULL : v;
}

cJSON *json_get(JPath p, cJSON *obj, const char *key, int type)
{
	cJSON *v = json_get_opt(obj, key);
	if (!v) {
		fe_error(p, "missing field \"%s\"", key);
		return NULL;
	}
	bool ok = !type || (v->type & 0xff) == type ||
	          (type == cJSON_True && (cJSON_IsBool(v)));
	if (!ok) {
		fe_error(p, "field \"%s\" must be %s", key, json_type_name(type));
		return NULL;
	}
	return v;
}

const char *json_str(JPath p, cJSON *obj, const char *key)
{
	cJSON *v = json_get(p, obj, key, cJSON_String);
	return v ? v->valuestring : "";
}

bool json_bool(JPath p, cJSON *obj, const char *key)
{
	cJSON *v = json_get(p, obj, key, cJSON_True);
	return v && cJSON_IsTrue(v);
}

int64_t json_int(JPath p, cJSON *obj, const char *key)
{
	cJSON *v = json_get(p, obj, key, 0);
	if (!v)
		return 0;
	if (cJSON_IsNumber(v))
		return (int64_t)v->valuedouble;
	U128 u;
	if (json_u128(p, v, &u))
		return (int64_t)u.lo;
	fe_error(p, "field \"%s\" must be an integer", key);
	return 0;
}

uint64_t json_u64(JPath p, cJSON *obj, const char *key)
{
	cJSON *v = json_get(p, obj, key, 0);
	U128 u = { 0, 0 };
	if (v && !json_u128(p, v, &u))
		fe_error(p, "field \"%s\" must be an unsigned integer", key);
	return u.lo;
}

/* Parse "123", "-5" (two's complement), "0x1f" or a JSON number into 128 bits. */
bool json_u128(JPath p, cJSON *v, U128 *out)
{
	(void)p;
	if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		int64_t i = (int64_t)d;
		out->lo = (uint64_t)i;
		out->hi = i < 0 ? UINT64_MAX : 0;
		return (double)i == d;
	}
	if (!cJSON_IsString(v) || !*v->valuestring)
		return false;
	const char *s = v->valuestring;
	bool neg = *s == '-';
	s += neg;
	unsigned base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	U128 r = { 0, 0 };
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else if (*s == '_')
			continue;
		else
			return false;
		/* r = r * base + d, 128-bit */
		uint128 x = ((uint128)r.hi << 64) | r.lo;
		x = x * base + d;
		r.lo = (uint64_t)x;
		r.hi = (uint64_t)(x >> 64);
	}
	if (neg) {
		uint128 x = ((uint128)r.hi << 64) | r.lo;
		x = -x;
		r.lo = (uint64_t)x;
		r.hi = (uint64_t)(x >> 64);
	}
	*out = r;
	return true;
}

static bool check_header(FeFile *f)
{
	JPath p = { f, "$" };
	cJSON *r = f->root;
	if (!cJSON_IsObject(r)) {
		fe_error(p, "not an oxide-mir file: the top level must be an object");
		return false;
	}
	cJSON *fmt = json_get_opt(r, "format");
	if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "oxide-mir")) {
		fe_error(p, "not an oxide-mir file: \"format\" must be \"oxide-mir\"");
		return false;
	}
	cJSON *ver = json_get_opt(r, "version");
	if (!cJSON_IsNumber(ver) || ver->valueint != OXIDE_MIR_VERSION) {
		fe_error(p, "unsupported oxide-mir version %s (this oxidec reads version %d; "
		         "re-export with a matching mir-export)",
		         cJSON_IsNumber(ver) ? cJSON_PrintUnformatted(ver) : "(missing)", OXIDE_MIR_VERSION);
		return false;
	}
	return json_get(p, r, "types", cJSON_Array) && json_get(p, r, "functions", cJSON_Array) &&
	       json_get(p, r, "files", cJSON_Array);
}

static bool parse_one(FeFile *f, const char *path)
{
	size_t len;
	char *text = read_file(path, &len);
	f->path = path;
	if (!text) {
		diag_error(path, "cannot read: %s", "no such file or unreadable");
		return false;
	}
	const char *end = NULL;
	f->root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!f->root) {
		size_t off = end ? (size_t)(end - text) : 0, line = 1, col = 1;
		for (size_t i = 0; i < off && i < len; i++, col++)
			if (text[i] == '\n')
				line++, col = 0;
		char where[1024];
		snprintf(where, sizeof where, "%s:%zu:%zu", path, line, col);
		diag_error(where, "malformed JSON");
		free(text);
		return false;
	}
	free(text);
	return check_header(f);
}

FeInput *fe_parse(const char **paths, int npath)
{
	FeInput *in = xmalloc(sizeof *in);
	in->nfile = npath;
	in->files = calloc((size_t)npath, sizeof *in->files);
	bool ok = true;
	for (int i = 0; i < npath; i++) {
		in->files[i].index = (uint32_t)i;
		ok &= parse_one(&in->files[i], paths[i]);
	}
	if (!ok) {
		fe_free(in);
		return NULL;
	}
	return in;
}

/* Stage 1 output: the inputs, validated, as one JSON array (or the single
 * object when there is one input). */
char *fe_print_json(FeInput *in)
{
	if (in->nfile == 1)
		return cJSON_Print(in->files[0].root);
	cJSON *arr = cJSON_CreateArray();
	for (int i = 0; i < in->nfile; i++)
		cJSON_AddItemReferenceToArray(arr, in->files[i].root);
	char *s = cJSON_Print(arr);
	cJSON_Delete(arr);
	return s;
}

void fe_free(FeInput *in)
{
	if (!in)
		return;
	for (int i = 0; i < in->nfile; i++)
		cJSON_Delete(in->files[i].root);
	free(in->files);
	free(in);
}
