/* mutate.c: structure-aware mutations for fuzz_json.c.  An input that
 * parses as JSON gets one structural edit of its cJSON tree and is printed
 * back; anything else, and one time in eight, libFuzzer's byte-level
 * mutation.  The edits are the ones that reach past the JSON parser into
 * the frontend's checks (and past them, when a check is missing):
 *
 *   number    a boundary value (0, -1, 2^31, 2^32+1, 1e19, 0.5, ...), +-1
 *   string    another string of the document, or mangled
 *   array     an element deleted, duplicated or two swapped
 *   object    a key deleted or renamed (to another key of the document)
 *   any       replaced by a copy of another subtree, or by a scalar
 *
 * Crossover puts a subtree of one input in place of a node of the other,
 * preferably one under the same key. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define countof(a) (sizeof(a) / sizeof((a)[0]))

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
                                 uint8_t *out, size_t max_out, unsigned int seed);

/* ------------------------------------------------------------ random */

static uint64_t rng;

static uint32_t rnd(uint32_t n)    /* 0..n-1; xorshift64* */
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return n ? (uint32_t)((rng * 0x2545F4914F6CDD1DULL) >> 32) % n : 0;
}

/* ------------------------------------------------ the document's nodes */

typedef struct {
	cJSON **node;      /* every node but the root, in document order */
	uint32_t n, cap;
} Nodes;

static void nodes_add(Nodes *ns, cJSON *j)
{
	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? ns->cap * 2 : 256;
		ns->node = realloc(ns->node, sizeof(cJSON *) * ns->cap);
	}
	ns->node[ns->n++] = j;
}

static void nodes_fill(Nodes *ns, cJSON *j)
{
	for (cJSON *c = j->child; c; c = c->next) {
		nodes_add(ns, c);
		nodes_fill(ns, c);
	}
}

/* A random node whose type is in mask (0: any); NULL after a few misses. */
static cJSON *pick(Nodes *ns, int mask)
{
	for (int tries = 0; ns->n && tries < 64; tries++) {
		cJSON *j = ns->node[rnd(ns->n)];
		if (!mask || (j->type & 0xff & mask))
			return j;
	}
	return NULL;
}

static cJSON *parent_of(cJSON *root, cJSON *j)
{
	for (cJSON *c = root->child; c; c = c->next) {
		if (c == j)
			return root;
		cJSON *p = parent_of(c, j);
		if (p)
			return p;
	}
	return NULL;
}

/* Put r in place of j (keeping j's key) and free j. */
static void replace(cJSON *root, cJSON *j, cJSON *r)
{
	cJSON *p = parent_of(root, j);
	if (!p || !r) {
		cJSON_Delete(r);
		return;
	}
	if (r->string && !(r->type & cJSON_StringIsConst))
		free(r->string);
	r->string = j->string ? strdup(j->string) : NULL;
	r->type &= ~cJSON_StringIsConst;
	cJSON_ReplaceItemViaPointer(p, j, r);
}

/* ----------------------------------------------------------- numbers */

/* Values the frontend must reject or handle: out of every integer range,
 * fractional, negative zero, huge, the edges of i32/u32/i64/u64. */
static const double boundary[] = {
	0, 1, -1, 2, 0.5, 1.5, 6.5, -0.0, 255, 256, 65535, 65536,
	2147483647.0, 2147483648.0, -2147483648.0, 4294967295.0, 4294967296.0, 4294967297.0,
	9007199254740993.0, 9223372036854775807.0, 18446744073709551615.0, 1e19, -1e19,
	1e300, -1e300, 1e-300, 3.4028234663852886e38,
};

static const char *const odd_numbers[] = {
	"_", "0x_", "0x", "-", "", "-0", "0x8000000000000000", "-9223372036854775809",
	"340282366920938463463374607431768211455", "340282366920938463463374607431768211456",
	"-170141183460469231731687303715884105729", "1e3", "0b101", " 1", "NaN", "inf",
};

static cJSON *new_number(cJSON *j)
{
	switch (rnd(4)) {
	case 0:
		return cJSON_CreateNumber(j->valuedouble + (rnd(2) ? 1 : -1));
	case 1:
		return cJSON_CreateString(odd_numbers[rnd(countof(odd_numbers))]);
	default:
		return cJSON_CreateNumber(boundary[rnd(countof(boundary))]);
	}
}

/* ----------------------------------------------------------- strings */

static char *mangle(const char *s)
{
	size_t n = strlen(s);
	char *r = malloc(n + 2);
	memcpy(r, s, n + 1);
	switch (rnd(4)) {
	case 0:                                   /* truncate */
		r[n ? rnd((uint32_t)n) : 0] = 0;
		break;
	case 1:                                   /* one character changed */
		if (n)
			r[rnd((uint32_t)n)] = "_0x:<>@$-9 "[rnd(11)];
		break;
	case 2:                                   /* one character added */
		r[n] = "0_x9:>"[rnd(6)];
		r[n + 1] = 0;
		break;
	default:
		r[0] = 0;
	}
	return r;
}

static cJSON *new_string(Nodes *ns, cJSON *j)
{
	if (rnd(2)) {
		char *m = mangle(j->valuestring);
		cJSON *r = cJSON_CreateString(m);
		free(m);
		return r;
	}
	cJSON *o = pick(ns, cJSON_String);
	return cJSON_CreateString(o ? o->valuestring : "");
}

/* ------------------------------------------------ arrays and objects */

/* x before a's element k, by detaching the tail and adding it back:
 * cJSON 1.7.15's InsertItemInArray loses elements in the middle (leaks). */
static void insert_at(cJSON *a, int k, cJSON *x)
{
	cJSON *tail = cJSON_CreateArray();
	while (cJSON_GetArraySize(a) > k)
		cJSON_AddItemToArray(tail, cJSON_DetachItemFromArray(a, k));
	cJSON_AddItemToArray(a, x);
	while (cJSON_GetArraySize(tail) > 0)
		cJSON_AddItemToArray(a, cJSON_DetachItemFromArray(tail, 0));
	cJSON_Delete(tail);
}

static void edit_array(cJSON *a)
{
	int n = cJSON_GetArraySize(a);
	if (!n)
		return;
	int i = (int)rnd((uint32_t)n), k = (int)rnd((uint32_t)n);
	switch (rnd(3)) {
	case 0:
		cJSON_DeleteItemFromArray(a, i);
		break;
	case 1:
		insert_at(a, k, cJSON_Duplicate(cJSON_GetArrayItem(a, i), 1));
		break;
	default: {                                /* swap i and k */
		cJSON *x = cJSON_DetachItemFromArray(a, i);
		insert_at(a, k, x);
	}
	}
}

static void edit_object(Nodes *ns, cJSON *o)
{
	int n = cJSON_GetArraySize(o);
	if (!n)
		return;
	cJSON *c = cJSON_GetArrayItem(o, (int)rnd((uint32_t)n));
	if (rnd(2)) {
		cJSON_DetachItemViaPointer(o, c);
		cJSON_Delete(c);
		return;
	}
	cJSON *k = pick(ns, 0);
	char *name = k && k->string && rnd(2) ? strdup(k->string) : mangle(c->string ? c->string : "");
	if (!(c->type & cJSON_StringIsConst))
		free(c->string);
	c->type &= ~cJSON_StringIsConst;
	c->string = name;
}

static cJSON *new_scalar(void)
{
	switch (rnd(5)) {
	case 0: return cJSON_CreateNull();
	case 1: return cJSON_CreateTrue();
	case 2: return cJSON_CreateObject();
	case 3: return cJSON_CreateArray();
	default: return cJSON_CreateString("");
	}
}

/* ------------------------------------------------------ one mutation */

static void mutate_tree(cJSON *root)
{
	Nodes ns = { 0 };
	nodes_fill(&ns, root);
	cJSON *j;
	switch (rnd(8)) {
	case 0: case 1: case 2:
		if ((j = pick(&ns, cJSON_Number)))
			replace(root, j, new_number(j));
		break;
	case 3:
		if ((j = pick(&ns, cJSON_String)))
			replace(root, j, new_string(&ns, j));
		break;
	case 4:
		if ((j = pick(&ns, cJSON_Array)))
			edit_array(j);
		break;
	case 5:
		if ((j = pick(&ns, cJSON_Object)))
			edit_object(&ns, j);
		break;
	case 6: {                                 /* a subtree copied over a node */
		cJSON *from = pick(&ns, 0), *to = pick(&ns, 0);
		if (from && to && from != to)
			replace(root, to, cJSON_Duplicate(from, 1));
		break;
	}
	default:
		if ((j = pick(&ns, 0)))
			replace(root, j, new_scalar());
	}
	free(ns.node);
}

static cJSON *parse(const uint8_t *data, size_t size)
{
	return size ? cJSON_ParseWithLength((const char *)data, size) : NULL;
}

/* The printed tree into out; 0 when it does not fit. */
static size_t print_into(cJSON *root, uint8_t *out, size_t max)
{
	char *s = cJSON_PrintUnformatted(root);
	size_t n = s ? strlen(s) : 0;
	if (n > max)
		n = 0;
	if (n)
		memcpy(out, s, n);
	free(s);
	return n;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	rng = seed * 0x9E3779B97F4A7C15ULL + 1;
	cJSON *root = rnd(8) ? parse(data, size) : NULL;
	if (!root)
		return LLVMFuzzerMutate(data, size, max_size);
	int edits = 1 + (int)(rnd(4) == 0) * (int)rnd(4);
	for (int i = 0; i < edits; i++)
		mutate_tree(root);
	size_t n = print_into(root, data, max_size);
	cJSON_Delete(root);
	return n ? n : LLVMFuzzerMutate(data, size, max_size);
}

/* A node of a, preferably under the key of b's node k. */
static cJSON *pick_like(Nodes *ns, const cJSON *k)
{
	for (int tries = 0; k->string && tries < 64; tries++) {
		cJSON *j = pick(ns, 0);
		if (j && j->string && !strcmp(j->string, k->string))
			return j;
	}
	return pick(ns, 0);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
                                 uint8_t *out, size_t max_out, unsigned int seed)
{
	rng = seed * 0x9E3779B97F4A7C15ULL + 7;
	cJSON *a = parse(d1, s1), *b = parse(d2, s2);
	size_t n = 0;
	if (a && b) {
		Nodes na = { 0 }, nb = { 0 };
		nodes_fill(&na, a);
		nodes_fill(&nb, b);
		cJSON *from = pick(&nb, 0), *to = from ? pick_like(&na, from) : NULL;
		if (to)
			replace(a, to, cJSON_Duplicate(from, 1));
		n = print_into(a, out, max_out);
		free(na.node);
		free(nb.node);
	}
	cJSON_Delete(a);
	cJSON_Delete(b);
	if (!n) {       /* not JSON: the first part of one, the rest of the other */
		size_t h = s1 / 2 < max_out ? s1 / 2 : max_out;
		memcpy(out, d1, h);
		size_t t = s2 - s2 / 2 < max_out - h ? s2 - s2 / 2 : max_out - h;
		memcpy(out + h, d2 + s2 / 2, t);
		n = h + t;
	}
	return n;
}
