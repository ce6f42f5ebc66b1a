/* mirsplit: cut one oxide-mir JSON file down to some of its kernels.
 *
 *   mirsplit --list IN.mir.json              print the kernel names, one a line
 *   mirsplit IN.mir.json OUT.mir.json NAME... keep kernels NAME... and every
 *                                            body they reach
 *
 * A body is reached through a call (callee "kind": "function"), a function
 * item used as a value (const "kind": "fn") or a named constant / promoted
 * (const "kind": "unevaluated"), and a vtable's methods through a cast
 * that names the vtable (rvalue "vtable": k, by their "symbol"), and the
 * vtables a kept vtable points to (entry {"vtable": j}: a supertrait's
 * vtable, which upcasts load) with their methods. Types,
 * allocations and vtables are kept whole: ids are indices, and oxidec
 * ignores what no body uses; a vtable that no kept body names has its
 * methods nulled, as they may be gone. The conformance runner
 * compiles every kernel of a group on its own with this, so that one
 * construct oxidec does not support yet fails only the kernels that use it.
 * Build: cc -O2 -o mirsplit mirsplit.c -lcjson */
#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0 || (buf = malloc((size_t)n + 1)) == NULL ||
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(1);
	}
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static cJSON *funcs, *vtables;
static int nfuncs;
static char *keep, *vt_keep;

static int find_body(const char *name)
{
	for (int i = 0; i < nfuncs; i++) {
		cJSON *n = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetArrayItem(funcs, i), "name");
		if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
			return i;
	}
	return -1;
}

static void mark(int i);

static void refer_symbol(const char *sym)
{
	for (int i = 0; i < nfuncs; i++) {
		cJSON *n = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetArrayItem(funcs, i), "symbol");
		if (cJSON_IsString(n) && strcmp(n->valuestring, sym) == 0)
			mark(i);
	}
}

/* vtable k, the methods in it and the vtables it points to */
static void mark_vtable(int k)
{
	const cJSON *e;

	if (k < 0 || k >= cJSON_GetArraySize(vtables) || vt_keep[k])
		return;
	vt_keep[k] = 1;
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(
		cJSON_GetArrayItem(vtables, k), "entries")) {
		const cJSON *vt = cJSON_GetObjectItemCaseSensitive(e, "vtable");
		if (cJSON_IsString(e))
			refer_symbol(e->valuestring);
		else if (cJSON_IsObject(e) && cJSON_IsNumber(vt))
			mark_vtable(vt->valueint);
	}
}

static void refer(const char *name)
{
	int j = find_body(name);

	if (j >= 0)
		mark(j);
}

/* Every object in the tree below v that names another body. */
static void scan(const cJSON *v)
{
	const cJSON *c;

	if (cJSON_IsObject(v)) {
		const cJSON *kind = cJSON_GetObjectItemCaseSensitive(v, "kind");
		const char *k = cJSON_IsString(kind) ? kind->valuestring : "";
		const char *field = strcmp(k, "function") == 0 ? "name"
			: strcmp(k, "unevaluated") == 0 ? "def"
			: strcmp(k, "fn") == 0 ? "function" : NULL;

		const cJSON *vt = cJSON_GetObjectItemCaseSensitive(v, "vtable");

		if (field != NULL) {
			const cJSON *n = cJSON_GetObjectItemCaseSensitive(v, field);
			if (cJSON_IsString(n))
				refer(n->valuestring);
		}
		if (strcmp(k, "cast") == 0 && cJSON_IsNumber(vt))
			mark_vtable(vt->valueint);
	}
	if (cJSON_IsObject(v) || cJSON_IsArray(v))
		cJSON_ArrayForEach(c, v)
			scan(c);
}

static void mark(int i)
{
	if (keep[i])
		return;
	keep[i] = 1;
	scan(cJSON_GetArrayItem(funcs, i));
}

static int is_kernel(const cJSON *body)
{
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(body, "kind");
	return cJSON_IsString(k) && strcmp(k->valuestring, "kernel") == 0;
}

int main(int argc, char **argv)
{
	cJSON *doc, *kept;
	char *text;
	FILE *out;
	int listing = argc == 3 && strcmp(argv[1], "--list") == 0;

	if (!listing && argc < 4) {
		fprintf(stderr, "usage: mirsplit --list IN.mir.json\n"
		        "       mirsplit IN.mir.json OUT.mir.json KERNEL...\n");
		return 2;
	}
	text = slurp(argv[listing ? 2 : 1]);
	doc = cJSON_Parse(text);
	free(text);
	funcs = cJSON_GetObjectItemCaseSensitive(doc, "functions");
	if (!cJSON_IsArray(funcs)) {
		fprintf(stderr, "mirsplit: %s: not oxide-mir JSON\n", argv[1]);
		return 1;
	}
	nfuncs = cJSON_GetArraySize(funcs);
	if (listing) {
		const cJSON *b;
		cJSON_ArrayForEach(b, funcs)
			if (is_kernel(b))
				printf("%s\n", cJSON_GetObjectItemCaseSensitive(
				       b, "name")->valuestring);
		return 0;
	}
	keep = calloc((size_t)nfuncs + 1, 1);
	vtables = cJSON_GetObjectItemCaseSensitive(doc, "vtables");
	vt_keep = calloc((size_t)cJSON_GetArraySize(vtables) + 1, 1);
	for (int a = 3; a < argc; a++) {
		int i = find_body(argv[a]);
		if (i < 0 || !is_kernel(cJSON_GetArrayItem(funcs, i))) {
			fprintf(stderr, "mirsplit: no kernel %s in %s\n", argv[a],
			        argv[1]);
			return 1;
		}
		mark(i);
	}
	kept = cJSON_CreateArray();
	for (int i = 0; i < nfuncs; i++)
		if (keep[i])
			cJSON_AddItemToArray(kept,
			        cJSON_Duplicate(cJSON_GetArrayItem(funcs, i), 1));
	cJSON_ReplaceItemInObjectCaseSensitive(doc, "functions", kept);
	for (int k = 0; k < cJSON_GetArraySize(vtables); k++) {
		cJSON *es = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetArrayItem(vtables, k), "entries");
		int n = cJSON_GetArraySize(es);
		if (vt_keep[k])
			continue;
		for (int i = 0; i < n; i++)
			cJSON_ReplaceItemInArray(es, i, cJSON_CreateNull());
	}
	text = cJSON_PrintUnformatted(doc);
	if (text == NULL || (out = fopen(argv[2], "w")) == NULL ||
	    fputs(text, out) == EOF || fclose(out) != 0) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}
