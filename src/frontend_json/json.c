/* json.c: stage 1's entry — read oxide-mir JSON files with cJSON, check
 * the format header and version, leave out repeated inputs, and have
 * parse.c build the typed model (oxmir.h); the checked accessors the
 * parsers use, whose errors name the file and the JSON path
 * ("k.mir.json: $.functions[3].blocks[2]: error"). */
#include "fe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

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

/* ---------------------------------------------------------- integers
 *
 * Every integer of the format goes through json_exact: a JSON number
 * that is an integer of at most 2^53 in magnitude (beyond that a double
 * is no longer exact, so the format writes such values as strings), or a
 * string of decimal or 0x-hex digits with an optional leading '-'.  The range checks on top of it report the
 * JSON path of the field and the value found, so no out-of-range or
 * fractional number ever reaches the builder as some other number. */

static int digit_of(char c, unsigned base)
{
	int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	      : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
	return d < (int)base ? d : -1;
}

/* Digits of one base and nothing else (not even '_': the format never
 * writes it); false on overflow past 128 bits. */
static bool parse_digits(const char *s, unsigned base, uint128 *out)
{
	uint128 x = 0;
	if (digit_of(*s, base) < 0)
		return false;
	for (; *s; s++) {
		int d = digit_of(*s, base);
		if (d < 0 || x > (~(uint128)0 - (unsigned)d) / base)
			return false;
		x = x * base + (unsigned)d;
	}
	*out = x;
	return true;
}

/* The integer in v: its magnitude and sign. */
static bool json_exact(cJSON *v, uint128 *mag, bool *neg)
{
	if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		if (!(d >= -9007199254740992.0 && d <= 9007199254740992.0) || d != (double)(int64_t)d)
			return false;
		*neg = d < 0;
		*mag = (uint128)(*neg ? -(int64_t)d : (int64_t)d);
		return true;
	}
	if (!cJSON_IsString(v))
		return false;
	const char *s = v->valuestring;
	*neg = *s == '-';
	s += *neg;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_digits(s + 2, 16, mag);
	return parse_digits(s, 10, mag);
}

/* "FILE: $.path.key: error[OX0100]: ..." (key NULL: p names the value itself). */
static void value_error(JPath p, const char *key, cJSON *v, const char *want)
{
	char *text = v ? cJSON_PrintUnformatted(v) : NULL;
	JStep last = { p.at, key, 0 };
	fe_error(key ? (JPath){ p.file, &last } : p, "must be %s, not %s", want, text ? text : "(missing)");
	free(text);
}

bool json_int_range(JPath p, const char *key, cJSON *v, int64_t lo, uint64_t hi, int64_t *out)
{
	uint128 mag;
	bool neg;
	bool ok = v && json_exact(v, &mag, &neg) &&
	          (neg && mag ? lo < 0 && mag <= (uint128)-(lo + 1) + 1 : mag <= hi);
	if (!ok) {
		char want[96];
		snprintf(want, sizeof want, "an integer in %lld..%llu", (long long)lo, (unsigned long long)hi);
		value_error(p, key, v, want);
		return false;
	}
	*out = neg ? (int64_t)-mag : (int64_t)(uint64_t)mag;
	return true;
}

int64_t json_int(JPath p, cJSON *obj, const char *key)
{
	int64_t r = 0;
	cJSON *v = json_get(p, obj, key, 0);
	if (v)
		json_int_range(p, key, v, INT64_MIN, INT64_MAX, &r);
	return r;
}

uint32_t json_u32(JPath p, cJSON *obj, const char *key)
{
	int64_t r = 0;
	cJSON *v = json_get(p, obj, key, 0);
	if (v)
		json_int_range(p, key, v, 0, UINT32_MAX, &r);
	return (uint32_t)r;
}

uint64_t json_u64(JPath p, cJSON *obj, const char *key)
{
	cJSON *v = json_get(p, obj, key, 0);
	uint128 mag;
	bool neg;
	if (!v)
		return 0;
	if (!json_exact(v, &mag, &neg) || neg || mag > UINT64_MAX) {
		value_error(p, key, v, "an integer in 0..18446744073709551615");
		return 0;
	}
	return (uint64_t)mag;
}

/* An alignment: a power of two, at most 2^29 (LLVM's limit). */
uint32_t json_align(JPath p, cJSON *obj, const char *key)
{
	int64_t r = 1;
	cJSON *v = json_get(p, obj, key, 0);
	if (v && json_int_range(p, key, v, 1, 1u << 29, &r) && (r & (r - 1)))
		value_error(p, key, v, "a power of two");
	return (uint32_t)r;
}

/* An index into a table of n entries: 0..n-1. */
bool json_index_value(JPath p, const char *key, cJSON *v, uint32_t n, uint32_t *out)
{
	int64_t r;
	if (n == 0 || !json_int_range(p, key, v, 0, n - 1, &r)) {
		if (n == 0)
			value_error(p, key, v, "an index into an empty table");
		return false;
	}
	*out = (uint32_t)r;
	return true;
}

bool json_index(JPath p, cJSON *obj, const char *key, uint32_t n, uint32_t *out)
{
	cJSON *v = json_get(p, obj, key, 0);
	return v && json_index_value(p, key, v, n, out);
}

/* "123", "-5" (two's complement), "0x1f" or a JSON number into 128 bits,
 * for constants of any integer type; false (not reported) when v is not
 * an integer of that form or needs more than 128 bits. */
bool json_u128(cJSON *v, U128 *out)
{
	uint128 x;
	bool neg;
	if (!v || !json_exact(v, &x, &neg) || (neg && x > (uint128)1 << 127))
		return false;
	if (neg)
		x = -x;
	out->lo = (uint64_t)x;
	out->hi = (uint64_t)(x >> 64);
	return true;
}

struct FeInput {
	Arena *a;                /* the model's */
	Arena *json;             /* every cJSON node and string of roots */
	cJSON **roots;           /* every input as read, for fe_print_json */
	int nroot;
	OxModule m;
};

OxModule *fe_model(FeInput *in)
{
	return &in->m;
}

static bool check_header(OxInput *in, cJSON *r)
{
	static const JStep root = { NULL, "$", 0 };
	JPath p = { in->path, &root };
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
	if (!cJSON_IsNumber(ver) || ver->valuedouble != OXIDE_MIR_VERSION) {
		char *text = ver ? cJSON_PrintUnformatted(ver) : NULL;
		fe_error(p, "unsupported oxide-mir version %s (this oxidec reads version %d; "
		         "re-export with a matching mir-export)", text ? text : "(missing)", OXIDE_MIR_VERSION);
		free(text);
		return false;
	}
	cJSON *allocs = json_get_opt(r, "allocs");
	if (allocs && !cJSON_IsArray(allocs))
		return fe_error(p, "field \"allocs\" must be an array"), false;
	return json_get(p, r, "types", cJSON_Array) && json_get(p, r, "functions", cJSON_Array) &&
	       json_get(p, r, "files", cJSON_Array);
}

static size_t max_input = (size_t)FE_MAX_INPUT_MIB << 20;

void fe_limit_input(size_t bytes)
{
	max_input = bytes;
}

/* cJSON's parse allocates every node, key and string separately; they
 * all live as long as the input, so they come from one arena that
 * fe_free releases at once (no cJSON_Delete walk, no malloc or free per
 * node: 5 % of wgmma_forms' whole compile was cJSON_Delete).  cJSON's
 * hooks take no context, hence the arena of the parse under way; they are
 * set for the parse only, so what cJSON prints (malloc'd, freed by its
 * caller) keeps the C library's allocator. */
static Arena *parse_arena;

static void *parse_alloc(size_t n)
{
	return arena_alloc(parse_arena, n);
}

static void parse_free(void *p)
{
	(void)p;   /* released with the arena */
}

static cJSON *parse_in_arena(Arena *a, const char *text, size_t len, const char **end)
{
	cJSON_Hooks hooks = { parse_alloc, parse_free };
	parse_arena = a;
	cJSON_InitHooks(&hooks);
	cJSON *root = cJSON_ParseWithLengthOpts(text, len, end, 0);
	cJSON_InitHooks(NULL);
	parse_arena = NULL;
	return root;
}

static cJSON *read_one(Arena *a, const char *path)
{
	size_t len;
	errno = 0;
	char *text = read_file(path, &len, max_input);
	if (!text && errno == EFBIG) {
		diag_error(OX_IO, path, "input larger than %zu MiB (the limit; --max-input=MIB raises it)", max_input >> 20);
		return NULL;
	}
	if (!text) {
		diag_error(OX_IO, path, "cannot read: %s", errno ? strerror(errno) : "read error");
		return NULL;
	}
	const char *end = NULL;
	cJSON *root = parse_in_arena(a, text, len, &end);
	if (!root) {
		size_t off = end ? (size_t)(end - text) : 0, line = 1, col = 1;
		for (size_t i = 0; i < off && i < len; i++, col++)
			if (text[i] == '\n')
				line++, col = 0;
		char where[1024];
		snprintf(where, sizeof where, "%s:%zu:%zu", path, line, col);
		diag_error(OX_INPUT, where, "malformed JSON");
	}
	free(text);
	return root;
}

/* Items are keyed by crate: two crates may both define a `Pair`. */
static const char *crate_of(cJSON *root, const char *path)
{
	cJSON *crate = json_get_opt(root, "crate");
	return cJSON_IsString(crate) && *crate->valuestring ? crate->valuestring : path;
}

/* An input identical to an earlier one (the same crate named twice on
 * the command line) adds nothing: it is left out, Constant statics and
 * all.  The others become PFiles, in order. */
static void add_inputs(PState *s, FeInput *in, const char **paths)
{
	OxModule *m = s->m;
	m->inputs = arena_new_array(s->a, OxInput, in->nroot);
	s->files = arena_new_array(s->a, PFile, in->nroot);
	for (int k = 0; k < in->nroot; k++) {
		bool seen = false;
		for (int j = 0; j < k && !seen; j++)
			seen = cJSON_Compare(in->roots[j], in->roots[k], true);
		if (seen)
			continue;
		OxInput *oi = &m->inputs[m->ninput++];
		oi->path = arena_strdup(s->a, paths[k]);
		oi->crate = arena_strdup(s->a, crate_of(in->roots[k], paths[k]));
		oi->index = (uint32_t)k;
		s->files[s->nfile++] = (PFile){ .in = oi, .root = in->roots[k] };
	}
}

FeInput *fe_parse(const char **paths, int npath)
{
	FeInput *in = xmalloc(sizeof *in);
	memset(in, 0, sizeof *in);
	in->a = arena_new();
	in->json = arena_new();
	in->nroot = npath;
	in->roots = calloc((size_t)npath, sizeof *in->roots);
	bool ok = true;
	for (int i = 0; i < npath; i++) {
		OxInput hdr = { .path = paths[i] };
		in->roots[i] = read_one(in->json, paths[i]);
		ok &= in->roots[i] && check_header(&hdr, in->roots[i]);
	}
	if (ok) {
		PState s = { .a = in->a, .m = &in->m, .errs = diag_errors() };
		add_inputs(&s, in, paths);
		ok = parse_input(&s);
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
	if (in->nroot == 1)
		return cJSON_Print(in->roots[0]);
	cJSON *arr = cJSON_CreateArray();
	for (int i = 0; i < in->nroot; i++)
		cJSON_AddItemReferenceToArray(arr, in->roots[i]);
	char *s = cJSON_Print(arr);
	cJSON_Delete(arr);
	return s;
}

void fe_free(FeInput *in)
{
	if (!in)
		return;
	free(in->roots);
	arena_free(in->json);   /* the trees: never cJSON_Delete'd (parse_in_arena) */
	arena_free(in->a);
	free(in);
}
