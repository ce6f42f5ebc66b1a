/* host.c: the ptxas hazard probe (README).  Runs every kernel of gen.py's
 * probes.ll, as PTX made by llc -O0 and llc -O3, each loaded four ways
 * (driver JIT at optimisation level 0 and 4, ptxas -O0 and -O3 cubins),
 * and compares every output word with the CPU reference of ref.h.
 *
 *   ./probe [DIR]      DIR holds llc{0,3}{,fix}.ptx, their ptxas -O0/-O3
 *                      cubins llc{0,3}{,fix}-ptxas{0,3}.cubin and known.txt
 *
 * Prints one line per probe: "ok", "known" (fails as known.txt says) or
 * "FAIL" (unexpectedly), with the number of wrong words per variant,
 * after the first wrong words of each failing variant; then a summary
 * "hazards: N probes, M failed (...), U unexpected, G known hazards not
 * seen".  Exit 1 when any failure was unexpected. */
#include <cuda.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	uint32_t i;     /* the thread's index (times mul for floats) */
	uint64_t k;     /* the other operand */
	int sw;         /* operands swapped */
} In;

#define ANY_NAN (~(uint64_t)0)          /* the reference: any NaN of the width */
#define ANY_ZERO (~(uint64_t)0 - 1)     /* +0 or -0 (min/max of zeros) */

static int64_t sext(uint64_t v, int w) { return (int64_t)(v << (64 - w)) >> (64 - w); }

static uint64_t clz_of(uint64_t v, int w) { return v ? (uint64_t)(__builtin_clzll(v) - (64 - w)) : (uint64_t)w; }

#define INT_PRELUDE(WB, X)                                                                \
	const int W = (WB);                                                               \
	const int64_t MAX = (int64_t)(~(uint64_t)0 >> (65 - W)), MIN = -MAX - 1;           \
	const uint64_t UMAX = ~(uint64_t)0 >> (64 - W);                                   \
	uint64_t ux = (X) & UMAX, ua0 = ux, ub0 = W == 8 ? (in->i >> 8) & UMAX : in->k & UMAX; \
	uint64_t ua = in->sw ? ub0 : ua0, ub = in->sw ? ua0 : ub0;                          \
	int64_t sx = sext(ux, W), sa = sext(ua, W), sb = sext(ub, W);                      \
	(void)MIN; (void)MAX; (void)sx; (void)sa; (void)sb; (void)ua; (void)ub
#define W_(v) ((uint64_t)(v) & UMAX)
#define S(v) sext(W_(v), W)
#define SAT(v) ((v) < MIN ? MIN : (v) > MAX ? MAX : (v))
#define clz_w(v) clz_of(v, W)
#define rotl_w(v, s) ((((v) << ((s) % W)) | ((v) >> ((W - (s) % W) % W))) & UMAX)

static uint64_t f32_nan_of(uint32_t i)
{
	return 0x7f800000u | (i & 0x7fffffu) | (i & 0x800000u) << 8;
}

static uint64_t f32_spread_of(uint32_t i) { return (uint32_t)(i * 2654435761u); }

static uint64_t f64_nan_of(uint32_t i)
{
	uint64_t m = (uint64_t)(i & 0x7fffffu) << 29, l = ((uint64_t)i * 2654435769u) & 0x1fffffff;
	return 0x7ff0000000000000u | m | l | (uint64_t)(i & 0x800000u) << 40;
}

static float f32_at(uint64_t b) { uint32_t u = (uint32_t)b; float f; memcpy(&f, &u, 4); return f; }
static double f64_at(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }

#define F32_PRELUDE(DEC)                                                      \
	const uint64_t SIGN = 0x80000000u, NEG1 = 0xbf800000u, POS1 = 0x3f800000u; \
	uint64_t xb0 = DEC(in->i), yb0 = (uint32_t)in->k;                     \
	uint64_t xb = in->sw ? yb0 : xb0, yb = in->sw ? xb0 : yb0;              \
	float x = f32_at(xb), y = f32_at(yb);                                  \
	(void)NEG1; (void)POS1; (void)x; (void)y; (void)yb; (void)SIGN
#define F64_PRELUDE(DEC)                                                              \
	const uint64_t SIGN = 0x8000000000000000u, NEG1 = 0xbff0000000000000u,            \
	               POS1 = 0x3ff0000000000000u;                                        \
	uint64_t xb0 = DEC(in->i), yb0 = in->k;                                       \
	uint64_t xb = in->sw ? yb0 : xb0, yb = in->sw ? xb0 : yb0;                      \
	double x = f64_at(xb), y = f64_at(yb);                                         \
	(void)NEG1; (void)POS1; (void)x; (void)y; (void)yb; (void)SIGN

/* LLVM's minnum/maxnum as Rust's f32::min/max document them: one NaN
 * operand gives the other operand, two give some NaN; zeros of either
 * sign compare equal and either may come back. */
#define MINMAX_REF(NAME, T, LESS)                                             \
	static uint64_t NAME(T x, T y, uint64_t xb, uint64_t yb)              \
	{                                                                     \
		if (isnan(x) && isnan(y))                                     \
			return ANY_NAN;                                       \
		if (isnan(x) || isnan(y))                                     \
			return isnan(x) ? yb : xb;                            \
		if (x == y)                                                   \
			return xb == yb ? xb : ANY_ZERO;                      \
		return (x LESS y) ? xb : yb;                                  \
	}
MINMAX_REF(minnum_ref32, float, <)
MINMAX_REF(maxnum_ref32, float, >)
MINMAX_REF(minnum_ref64, double, <)
MINMAX_REF(maxnum_ref64, double, >)
#define minnum_ref(x, y, xb, yb) _Generic((x), float: minnum_ref32, double: minnum_ref64)(x, y, xb, yb)
#define maxnum_ref(x, y, xb, yb) _Generic((x), float: maxnum_ref32, double: maxnum_ref64)(x, y, xb, yb)

/* gen.py's clamp: v = x < y ? y : x; v > 100 ? 100 : v (bit for bit). */
static uint64_t clamp_ref32(float x, float y, uint64_t xb, uint64_t yb)
{
	float v = x < y ? y : x;
	uint64_t vb = x < y ? yb : xb;
	return v > 100.0f ? 0x42c80000u : vb;
}

static uint64_t clamp_ref64(double x, double y, uint64_t xb, uint64_t yb)
{
	double v = x < y ? y : x;
	uint64_t vb = x < y ? yb : xb;
	return v > 100.0 ? 0x4059000000000000u : vb;
}
#define clamp_ref(x, y, xb, yb) _Generic((x), float: clamp_ref32, double: clamp_ref64)(x, y, xb, yb)

#include "ref.h"

#define NPROBES (int)(sizeof probes / sizeof probes[0])

/* ------------------------------------------------------------ driver */

static void check(CUresult r, const char *what)
{
	if (r == CUDA_SUCCESS)
		return;
	const char *s = NULL;
	cuGetErrorString(r, &s);
	fprintf(stderr, "hazards: %s: %s\n", what, s ? s : "?");
	exit(2);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "hazards: cannot open %s\n", path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	if (fread(b, 1, (size_t)n, f) != (size_t)n)
		exit(2);
	b[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* Variants: LLVM's PTX (llc -O0, -O3) raw and after oxidec's rewrites
 * (src/emit/ptxfix.c), each loaded four ways. */
enum { NBASE = 4, NHOW = 4, NVAR = NBASE * NHOW };
static const char *base_name[NBASE] = {"llc0", "llc3", "llc0fix", "llc3fix"};
static const char *how_name[NHOW] = {"jit0", "jit4", "ptxas0", "ptxas3"};
static char var_name[NVAR][32];
static CUmodule mods[NVAR];

static bool is_fix_variant(int v) { return v / NHOW >= 2; }

static void load_variant(const char *dir, int v)
{
	char path[4096];
	const char *base = base_name[v / NHOW];
	int how = v % NHOW;
	size_t len;
	snprintf(var_name[v], sizeof var_name[v], "%s/%s", base, how_name[how]);
	if (how < 2) {
		snprintf(path, sizeof path, "%s/%s.ptx", dir, base);
		char *img = slurp(path, &len);
		CUjit_option o[1] = {CU_JIT_OPTIMIZATION_LEVEL};
		void *val[1] = {(void *)(uintptr_t)(how ? 4 : 0)};
		check(cuModuleLoadDataEx(&mods[v], img, 1, o, val), path);
		free(img);
	} else {
		snprintf(path, sizeof path, "%s/%s-ptxas%d.cubin", dir, base, how == 2 ? 0 : 3);
		char *img = slurp(path, &len);
		check(cuModuleLoadData(&mods[v], img), path);
		free(img);
	}
}

/* known.txt: "NAME raw" fails in LLVM's PTX only (a hazard oxidec's
 * rewrites remove), "NAME all" everywhere (a pattern the rewrites cannot
 * see, kept as evidence).  Anything else that fails is unexpected. */
static char known[512][64];
static char known_how[512][8];
static int nknown;

static void read_known(const char *dir)
{
	char path[4096], line[256];
	snprintf(path, sizeof path, "%s/known.txt", dir);
	FILE *f = fopen(path, "r");
	while (f && nknown < 512 && fgets(line, sizeof line, f))
		if (line[0] != '#' && sscanf(line, "%63s %7s", known[nknown], known_how[nknown]) == 2)
			nknown++;
	if (f)
		fclose(f);
}

/* Whether a failure of probe `name` in variant v is a known one. */
static bool known_failure(const char *name, int v)
{
	for (int i = 0; i < nknown; i++)
		if (!strcmp(known[i], name))
			return !strcmp(known_how[i], "all") || !is_fix_variant(v);
	return false;
}

/* The runs of a probe: its domain's size, and the k values and orders. */
static const uint64_t k16[] = {0x8000, 0x8001, 0xffff, 0, 1, 0x7ffe, 0x7fff, 0xfffe,
                               2, 0x80, 0xff, 0x100, 0x7f, 0xff80, 0x1234, 0xc000};
static const uint64_t kf32[] = {0x3f800000, 0xbf800000, 0, 0x80000000, 0x7f800000, 0xff800000,
                                0x7fc00000, 0x7f800001, 0xffa00000, 0x42c80000};
static const uint64_t kf64[] = {0x3ff0000000000000, 0xbff0000000000000, 0, 0x8000000000000000,
                                0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
                                0x7ff0000000000001, 0xfff4000000000000, 0x4059000000000000};

typedef struct {
	uint32_t n, mul;
	const uint64_t *ks;
	int nk, nsw;
} Runs;

static bool is_sign_op(const char *name)
{
	return strstr(name, "_neg") || strstr(name, "_abs");
}

static Runs runs_of(const struct probe *p)
{
	Runs r = {65536, 1, k16, 1, 1};
	if (!strcmp(p->dom, "U8"))
		r.n = 256;
	else if (!strcmp(p->dom, "P16"))
		r.nk = 16, r.nsw = 2;
	else if (p->dom[0] == 'F') {
		bool f64 = !strcmp(p->dom, "F64");
		r.ks = f64 ? kf64 : kf32;
		if (is_sign_op(p->name))     /* every NaN of f32, 2^24 of f64 */
			r.n = 1u << 24;
		else                          /* 2^18 spread samples per k and order */
			r.n = 1u << 18, r.mul = 65, r.nk = 10, r.nsw = 2;
	}
	return r;
}

/* The ANY_ sentinels are references of float probes only: an integer
 * probe's result may be all ones or 0x80000000 itself. */
static bool same(uint64_t want, uint64_t got, const char *dom)
{
	if (dom[0] != 'F')
		return want == got;
	if (want == ANY_NAN)
		return !strcmp(dom, "F64") ? isnan(f64_at(got)) : got >> 32 == 0 && isnan(f32_at(got));
	if (want == ANY_ZERO)
		return !strcmp(dom, "F64") ? (got << 1) == 0 : got == 0 || got == 0x80000000u;
	return want == got;
}

static long bad_cells, bad_words[NVAR];

static void report(const struct probe *p, int v, const In *in, uint64_t want, uint64_t got)
{
	if (bad_words[v]++ >= 4)
		return;
	printf("  %-24s %-12s i=%#x k=%#llx sw=%d: got %#llx, want %#llx%s\n", p->name, var_name[v], in->i,
	       (unsigned long long)in->k, in->sw, (unsigned long long)got, (unsigned long long)want,
	       want == ANY_NAN && p->dom[0] == 'F' ? " (any NaN)" : "");
}

/* One run of probe j on every variant: the reference is computed once. */
static void run_one(int j, const Runs *r, uint64_t k, int sw, CUdeviceptr dout, uint64_t *want, uint64_t *got)
{
	const struct probe *p = &probes[j];
	for (uint32_t i = 0; i < r->n; i++) {
		In in = {i * r->mul, k, sw};
		want[i] = expect(j, &in);
	}
	for (int v = 0; v < NVAR; v++) {
		CUfunction f;
		check(cuModuleGetFunction(&f, mods[v], p->name), p->name);
		uint32_t n = r->n, swp = (uint32_t)sw, mul = r->mul;
		uint64_t kk = k;
		void *args[] = {&dout, &n, &kk, &swp, &mul};
		check(cuMemsetD8(dout, 0xa5, (size_t)n * 8), "memset");
		check(cuLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, 0, args, NULL), p->name);
		check(cuMemcpyDtoH(got, dout, (size_t)n * 8), p->name);
		for (uint32_t i = 0; i < n; i++)
			if (!same(want[i], got[i], p->dom)) {
				In in = {i * r->mul, k, sw};
				report(p, v, &in, want[i], got[i]);
			}
	}
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	CUdevice dev;
	CUcontext ctx;
	check(cuInit(0), "cuInit");
	check(cuDeviceGet(&dev, 0), "cuDeviceGet");
	check(cuCtxCreate(&ctx, NULL, 0, dev), "cuCtxCreate");
	for (int v = 0; v < NVAR; v++)
		load_variant(dir, v);
	read_known(dir);
	CUdeviceptr dout;
	check(cuMemAlloc(&dout, (size_t)8 << 24), "cuMemAlloc");
	uint64_t *want = malloc((size_t)8 << 24), *got = malloc((size_t)8 << 24);
	int failed = 0, unexpected = 0, gone = 0;
	for (int j = 0; j < NPROBES; j++) {
		Runs r = runs_of(&probes[j]);
		memset(bad_words, 0, sizeof bad_words);
		for (int a = 0; a < r.nk; a++)
			for (int sw = 0; sw < r.nsw; sw++)
				run_one(j, &r, r.ks[a], sw, dout, want, got);
		int cells = 0, bad_new = 0, raw_ok = 0;
		for (int v = 0; v < NVAR; v++) {
			cells += bad_words[v] != 0;
			bad_new += bad_words[v] && !known_failure(probes[j].name, v);
			raw_ok += !bad_words[v] && known_failure(probes[j].name, v) && v % NHOW == NHOW - 1;
		}
		printf("%-4s %-24s", bad_new ? "FAIL" : cells ? "known" : "ok", probes[j].name);
		for (int v = 0; v < NVAR; v++)
			if (bad_words[v])
				printf(" %s=%ld", var_name[v], bad_words[v]);
		printf("%s\n", raw_ok ? " (known hazard not seen at ptxas -O3: gone?)" : "");
		failed += cells != 0;
		unexpected += bad_new != 0;
		gone += raw_ok != 0;
		bad_cells += cells;
		fflush(stdout);
	}
	printf("hazards: %d probes, %d failed (variant cells: %ld), %d unexpected, %d known hazards not seen\n",
	       NPROBES, failed, bad_cells, unexpected, gone);
	return unexpected != 0;
}
