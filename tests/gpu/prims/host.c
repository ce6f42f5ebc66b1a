/* tests/gpu/prims/host.c: every tensor-core and asynchronous-copy
 * primitive of the registry (the kernels of lib.rs) run by two modules
 * with the same random inputs, their outputs compared word by word and
 * each checked against a CPU reference written here from the PTX ISA's
 * fragment tables (independently of src/runtime/oxemu_mma.c):
 *   mma.sync m16n8k16 bf16 / f16, m16n8k8 tf32 (exact inputs: small
 *   integers, whose sums every order gets right; random inputs; tf32
 *   operands with their 13 low bits set, which the emulator truncates),
 *   m16n8k32 s8 / u8 (.satfinite), cvt.rna.tf32.f32 (specials included),
 *   ldmatrix and stmatrix x1 / x2 / x4 (.trans) at scattered row
 *   addresses, cp.async ca 4 / 8 / 16 and cg 16 with wait_group 7..0 and
 *   wait_all, mbarrier init / arrive / expect_tx / try_wait (both
 *   parities) / inval with bulk_copy_g2s and elect_sync; oxide_device::atomic's
 *   types (every method, type, scope and a mix of orderings on words one
 *   thread owns; then contention whose final values do not depend on the
 *   order: shared block-scope tickets and f32 sums, global device and system
 *   counters, min / max, fetch_update, atomicInc / atomicDec); %lanemask_*,
 *   warp ids and f32 / f64 reductions over partial, scattered warp masks.
 * Each module runs in a child process (oxrt serves one kind of module per
 * process). Integer and byte results must be equal; f32 results print
 * how many words differ and by how many ulps at most (PRIMS_F32_ULPS,
 * default 0, is the tolerance of exact inputs; of random ones it is the
 * reference check's, 2^-16 of the exact sum on each side: the H200 sums
 * and rounds the products in an order the ISA does not specify, the
 * emulator rounds the exact sum once, and 24-46 % of the words differ
 * in the last bits). One PASS/FAIL line per test with the
 * first differences, then "N passed, M failed".
 * usage: host A B           A, B: .cubin / .ptx (GPU) or .so (emulated);
 *                           e.g. the GPU against the emulator, or the
 *                           emulator against itself (no GPU)
 *        host --sweep M     all 2^32 f32 values through cvt.rna.tf32.f32
 *                           on M, against the emulator's function */
#define _POSIX_C_SOURCE 200809L
#include "../../../src/runtime/oxrt.h"
#include "../../../src/runtime/oxide_host_abi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { NT = 64, NB = 16, ROWS = 32, LD = 24, CP_BYTES = 112, BULK = 1024, NCVT = 7 << 16 };

typedef enum { CMP_EXACT, CMP_F32 } Cmp;

/* what a kernel gets and gives: inputs in[0..3] (bytes), one output */
typedef struct {
	size_t in_bytes[4], out_bytes;
	unsigned nin;
	uint8_t *in[4];
} Io;

typedef struct Test Test;
struct Test {
	const char *name, *kernel;
	Cmp cmp;
	void (*setup)(const Test *t, Io *io);          /* sizes and inputs */
	void (*launch)(const OxFunc *f, const Io *io, OxDevPtr *din, OxDevPtr dout);
	/* the reference's verdict on out: NULL, or what is wrong */
	const char *(*check)(const Test *t, const Io *io, const uint8_t *out);
	int mode;                                       /* the setup's variant */
};

/* ---- random inputs ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int rnd_int(int lo, int hi)    /* lo..hi */
{
	return lo + (int)(rnd() % (uint64_t)(hi - lo + 1));
}

static float rnd_unit(void)           /* [-1, 1) */
{
	return (float)((double)(rnd() >> 11) / 9007199254740992.0 * 2 - 1);
}

static uint32_t f32_bits(float x)
{
	uint32_t u;
	memcpy(&u, &x, 4);
	return u;
}

static float bits_f32(uint32_t u)
{
	float x;
	memcpy(&x, &u, 4);
	return x;
}

static void io_alloc(Io *io, unsigned nin, const size_t *in_bytes, size_t out_bytes)
{
	io->nin = nin;
	io->out_bytes = out_bytes;
	for (unsigned i = 0; i < nin; i++) {
		io->in_bytes[i] = in_bytes[i];
		io->in[i] = calloc(1, in_bytes[i]);
		if (io->in[i] == NULL)
			exit(2);
	}
}

/* ---- the mma fragments (PTX ISA, "Matrix Fragments for mma.m16n8k*"):
 * where element i of a lane's A, B or C fragment sits in the matrix ---- */

typedef enum { E_BF16, E_F16, E_TF32, E_S8, E_U8 } Elem;

static unsigned k_of(Elem e)
{
	return e == E_TF32 ? 8 : e >= E_S8 ? 32 : 16;
}

static unsigned per_reg(Elem e)       /* elements per 32-bit register */
{
	return e == E_TF32 ? 1 : e >= E_S8 ? 4 : 2;
}

/* A element i of lane (g, t): its row and column */
static void a_pos(Elem e, unsigned g, unsigned t, unsigned i, unsigned *r, unsigned *c)
{
	if (e == E_TF32) {                   /* a0 (g,t) a1 (g+8,t) a2 (g,t+4) a3 (g+8,t+4) */
		*r = g + 8 * (i % 2);
		*c = t + 4 * (i >= 2);
	} else if (e >= E_S8) {              /* a0..a3 row g, a4..a7 g+8, a8.. columns + 16 */
		*r = g + 8 * ((i / 4) % 2);
		*c = 4 * t + (i & 3) + 16 * (i >= 8);
	} else {                             /* a0,a1 row g, a2,a3 g+8, a4.. columns + 8 */
		*r = g + 8 * ((i / 2) % 2);
		*c = 2 * t + (i & 1) + 8 * (i >= 4);
	}
}

/* B element i of lane (g, t): its row (k) and column (n = g) */
static unsigned b_row(Elem e, unsigned t, unsigned i)
{
	if (e == E_TF32)
		return t + 4 * i;
	if (e >= E_S8)
		return 4 * t + (i & 3) + 16 * (i >= 4);
	return 2 * t + (i & 1) + 8 * (i >= 2);
}

/* element i of a lane's registers, as a double */
static double elem(Elem e, const uint32_t *regs, unsigned i)
{
	unsigned n = per_reg(e), w = 32 / n;
	uint32_t v = n == 1 ? regs[i] : (regs[i / n] >> (w * (i % n))) & ((1u << w) - 1);
	switch (e) {
	case E_BF16: return bits_f32(v << 16);
	case E_F16: return __oxide_host_cvt_f32_f16((unsigned short)v);
	case E_TF32: return bits_f32(v & 0xffffe000u);
	case E_S8: return (int8_t)v;
	default: return v;
	}
}

/* D of one tile (32 lanes' A, B, C fragments), exactly: long double
 * holds every sum of these tests' products exactly or nearly */
static void mma_ref(Elem e, const uint32_t (*a)[4], const uint32_t (*b)[2], long double d[16][8])
{
	static double A[16][32], B[32][8];
	unsigned K = k_of(e), na = 16 * K / 32, nb = 8 * K / 32;

	for (unsigned l = 0; l < 32; l++) {
		for (unsigned i = 0; i < na; i++) {
			unsigned r, c;
			a_pos(e, l / 4, l % 4, i, &r, &c);
			A[r][c] = elem(e, a[l], i);
		}
		for (unsigned i = 0; i < nb; i++)
			B[b_row(e, l % 4, i)][l / 4] = elem(e, b[l], i);
	}
	for (unsigned r = 0; r < 16; r++)
		for (unsigned c = 0; c < 8; c++) {
			long double s = 0;
			for (unsigned k = 0; k < K; k++)
				s += (long double)A[r][k] * B[k][c];
			d[r][c] = s;
		}
}

/* C / D element i of lane l */
static void c_pos(unsigned l, unsigned i, unsigned *r, unsigned *c)
{
	*r = l / 4 + 8 * (i >= 2);
	*c = 2 * (l % 4) + (i & 1);
}

/* ---- mma tests: NT tiles of 32 lanes; in: a[4], b[2], c[4] per lane ---- */

static Elem elem_of(const Test *t)
{
	const char *k = t->kernel;
	return !strcmp(k, "mma_bf16") ? E_BF16 : !strcmp(k, "mma_f16") ? E_F16 : !strcmp(k, "mma_tf32") ? E_TF32
	       : !strncmp(k, "mma_s8", 6) ? E_S8 : E_U8;
}

enum { M_EXACT, M_RANDOM, M_LOWBITS };

/* one element's bits: small integers (exact), random in [-1, 1), or
 * (tf32) small integers with the 13 low bits random */
static uint32_t gen_elem(Elem e, int mode)
{
	float x = mode == M_RANDOM ? rnd_unit() : (float)rnd_int(-8, 8);
	switch (e) {
	case E_BF16: return f32_bits(x) >> 16;     /* exact for the integers */
	case E_F16: return __oxide_host_cvt_rn_f16_f32(x);
	case E_TF32:
		return mode == M_LOWBITS && x != 0 ? f32_bits(x) | (uint32_t)(rnd() & 0x1fff)
		                                  : __oxide_host_cvt_rna_tf32_f32(x);
	case E_S8:
	case E_U8: return (uint32_t)(rnd() & 0xff);
	}
	return 0;
}

static uint32_t gen_reg(Elem e, int mode)
{
	unsigned n = per_reg(e), w = 32 / n;
	uint32_t r = 0;
	for (unsigned i = 0; i < n; i++)
		r |= gen_elem(e, mode) << (w * i);
	return r;
}

static void mma_setup(const Test *t, Io *io)
{
	Elem e = elem_of(t);
	const size_t in[3] = {NT * 32 * 16, NT * 32 * 8, NT * 32 * 16};
	io_alloc(io, 3, in, NT * 32 * 16);
	uint32_t *a = (uint32_t *)io->in[0], *b = (uint32_t *)io->in[1], *c = (uint32_t *)io->in[2];
	for (unsigned i = 0; i < NT * 32; i++) {
		unsigned tile = i / 32;
		for (unsigned j = 0; j < 4; j++)
			a[4 * i + j] = gen_reg(e, t->mode);
		for (unsigned j = 0; j < 2; j++)
			b[2 * i + j] = gen_reg(e, t->mode);
		for (unsigned j = 0; j < 4; j++) {
			if (e >= E_S8)   /* small, near i32::MAX, near i32::MIN: wraps, saturates */
				c[4 * i + j] = (uint32_t)(tile % 3 == 0 ? rnd_int(-(1 << 20), 1 << 20)
				                          : tile % 3 == 1 ? INT32_MAX - rnd_int(0, 1 << 20)
				                          : INT32_MIN + rnd_int(0, 1 << 20));
			else
				c[4 * i + j] = f32_bits(t->mode == M_RANDOM ? rnd_unit() : (float)rnd_int(-64, 64));
		}
	}
}

static void launch4(const OxFunc *f, unsigned grid, unsigned block, OxDevPtr *din, unsigned nin, OxDevPtr dout)
{
	void *args[5];
	for (unsigned i = 0; i < nin; i++)
		args[i] = &din[i];
	args[nin] = &dout;
	OX_CHECK(ox_launch_sync(f, ox_dim(grid, 1, 1), ox_dim(block, 1, 1), 0, args));
}

static void mma_launch(const OxFunc *f, const Io *io, OxDevPtr *din, OxDevPtr dout)
{
	(void)io;
	launch4(f, NT, 32, din, 3, dout);
}

static char why[512];

/* f32 results: exact inputs must give the exact sum; random ones within
 * 2^-20 of the sum of |terms| (a fragment-layout error is far off) */
static const char *mma_check(const Test *t, const Io *io, const uint8_t *out)
{
	Elem e = elem_of(t);
	const uint32_t (*a)[4] = (const uint32_t (*)[4])io->in[0], (*b)[2] = (const uint32_t (*)[2])io->in[1];
	const uint32_t *c = (const uint32_t *)io->in[2], *d = (const uint32_t *)out;
	int sat = strstr(t->kernel, "sat") != NULL;

	for (unsigned tile = 0; tile < NT; tile++) {
		long double ref[16][8];
		mma_ref(e, a + 32 * tile, b + 32 * tile, ref);
		for (unsigned l = 0; l < 32; l++)
			for (unsigned i = 0; i < 4; i++) {
				unsigned r, col, k = 4 * (32 * tile + l) + i;
				c_pos(l, i, &r, &col);
				uint32_t want;
				if (e >= E_S8) {
					long long s = (long long)ref[r][col] + (int32_t)c[k];
					want = sat ? (uint32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s)
					           : (uint32_t)s;
				} else {
					long double s = ref[r][col] + bits_f32(c[k]);
					if (t->mode == M_RANDOM) {
						if (fabsl(bits_f32(d[k]) - s) <= ldexpl(1, -20) * 16)
							continue;
						want = f32_bits((float)s);
					} else {
						want = f32_bits((float)s);
					}
				}
				if (d[k] != want) {
					snprintf(why, sizeof why, "tile %u lane %u d%u (D[%u][%u]): 0x%08x, the reference 0x%08x",
					         tile, l, i, r, col, d[k], want);
					return why;
				}
			}
	}
	return NULL;
}

/* ---- cvt.rna.tf32.f32: 65536 values from each base ---- */

static const uint32_t CVT_BASE[7] = {0x00000000, 0x007f8000, 0x3f7f8000, 0x7f7f0000, 0x7f800000, 0xff7f8000,
                                     0xffff0000};

static void cvt_setup(const Test *t, Io *io)
{
	(void)t;
	io_alloc(io, 0, NULL, NCVT * 4);
}

static void cvt_launch(const OxFunc *f, const Io *io, OxDevPtr *din, OxDevPtr dout)
{
	(void)io;
	(void)din;
	for (unsigned i = 0; i < 7; i++) {
		uint32_t base = CVT_BASE[i], n = 1 << 16;
		OxDevPtr o = dout + (OxDevPtr)i * 4 * n;
		void *args[] = {&base, &n, &o};
		OX_CHECK(ox_launch_sync(f, ox_dim(n / 256, 1, 1), ox_dim(256, 1, 1), 0, args));
	}
}

/* round to nearest, ties away, at bit 13 (finite); else the top 19 bits */
static uint32_t tf32_ref(uint32_t u)
{
	if ((u & 0x7f800000u) == 0x7f800000u)
		return u & 0xffffe000u;
	uint32_t low = u & 0x1fffu, r = u & 0xffffe000u;
	return low >= 0x1000u ? r + 0x2000u : r;
}

static const char *cvt_check(const Test *t, const Io *io, const uint8_t *out)
{
	(void)t;
	(void)io;
	const uint32_t *d = (const uint32_t *)out;
	for (unsigned i = 0; i < NCVT; i++) {
		uint32_t u = CVT_BASE[i >> 16] + (i & 0xffff);
		if (d[i] != tf32_ref(u)) {
			snprintf(why, sizeof why, "cvt(0x%08x) = 0x%08x, the reference 0x%08x", u, d[i], tf32_ref(u));
			return why;
		}
	}
	return NULL;
}

/* ---- ldmatrix / stmatrix: NB tiles of 32 x 24 16-bit elements ---- */

static unsigned row_of(unsigned lane, unsigned b)   /* as lib.rs */
{
	return ((13 * lane + b) % ROWS) * LD + (lane % 2) * 8;
}

static void ldm_setup(const Test *t, Io *io)
{
	(void)t;
	const size_t in[1] = {NB * ROWS * LD * 2};
	io_alloc(io, 1, in, NB * 32 * 14 * 4);
	for (size_t i = 0; i < in[0]; i++)
		io->in[0][i] = (uint8_t)rnd();
}

static void ldm_launch(const OxFunc *f, const Io *io, OxDevPtr *din, OxDevPtr dout)
{
	(void)io;
	launch4(f, NB, 32, din, 1, dout);
}

/* lane l's register j of ldmatrix (trans) of tile b */
static uint32_t ldm_ref(const uint16_t *tile, unsigned b, unsigned l, unsigned j, int trans)
{
	uint32_t v = 0;
	for (unsigned h = 0; h < 2; h++) {
		unsigned r = l / 4, c = 2 * (l % 4) + h;
		uint16_t e = trans ? tile[row_of(8 * j + c, b) + r] : tile[row_of(8 * j + r, b) + c];
		v |= (uint32_t)e << (16 * h);
	}
	return v;
}

static const char *ldm_check(const Test *t, const Io *io, const uint8_t *out)
{
	(void)t;
	static const unsigned n[6] = {1, 2, 4, 1, 2, 4};
	static const char *const name[6] = {"x1", "x2", "x4", "x1.trans", "x2.trans", "x4.trans"};
	const uint32_t *d = (const uint32_t *)out;
	for (unsigned b = 0; b < NB; b++) {
		const uint16_t *tile = (const uint16_t *)io->in[0] + b * ROWS * LD;
		for (unsigned l = 0; l < 32; l++)
			for (unsigned v = 0, w = 0; v < 6; v++)
				for (unsigned j = 0; j < n[v]; j++, w++) {
					uint32_t got = d[(32 * b + l) * 14 + w], want = ldm_ref(tile, b, l, j, v >= 3);
					if (got != want) {
						snprintf(why, sizeof why, "%s tile %u lane %u register %u: 0x%08x, the reference 0x%08x",
						         name[v], b, l, j, got, want);
						return why;
					}
				}
	}
	return NULL;
}

static void stm_setup(const Test *t, Io *io)
{
	(void)t;
	const size_t in[1] = {NB * 32 * 16};
	io_alloc(io, 1, in, NB * 6 * ROWS * LD * 2);
	for (size_t i = 0; i < in[0]; i++)
		io->in[0][i] = (uint8_t)rnd();
}

static const char *stm_check(const Test *t, const Io *io, const uint8_t *out)
{
	(void)t;
	static const unsigned n[6] = {1, 2, 4, 1, 2, 4};
	const uint32_t (*regs)[4] = (const uint32_t (*)[4])io->in[0];
	static uint16_t want[ROWS * LD];
	for (unsigned b = 0; b < NB; b++)
		for (unsigned v = 0; v < 6; v++) {
			const uint16_t *got = (const uint16_t *)out + (b * 6 + v) * ROWS * LD;
			memset(want, 0, sizeof want);
			for (unsigned j = 0; j < n[v]; j++)
				for (unsigned r = 0; r < 8; r++)
					for (unsigned c = 0; c < 8; c++) {
						/* element (r, c) of matrix j: (r, c) of the fragment, or (c, r) */
						unsigned fr = v >= 3 ? c : r, fc = v >= 3 ? r : c;
						uint32_t reg = regs[32 * b + 4 * fr + fc / 2][j];
						want[row_of(8 * j + r, b) + c] = (uint16_t)(reg >> (16 * (fc % 2)));
					}
			for (unsigned i = 0; i < ROWS * LD; i++)
				if (got[i] != want[i]) {
					snprintf(why, sizeof why, "variant %u tile %u row %u column %u: 0x%04x, the reference 0x%04x",
					         v, b, i / LD, i % LD, got[i], want[i]);
					return why;
				}
		}
	return NULL;
}

/* ---- cp.async and the bulk copy: the output is the input ---- */

static void cp_setup(const Test *t, Io *io)
{
	(void)t;
	const size_t in[1] = {NB * 32 * CP_BYTES};
	io_alloc(io, 1, in, in[0]);
	for (size_t i = 0; i < in[0]; i++)
		io->in[0][i] = (uint8_t)rnd();
}

/* cp_async_all: each lane's 9 copies landed, the gaps between them are 0 */
static const char *cp_check(const Test *t, const Io *io, const uint8_t *out)
{
	static const unsigned off[9] = {0, 8, 16, 32, 48, 56, 64, 80, 96}, size[9] = {4, 8, 16, 16, 4, 8, 16, 16, 16};
	(void)t;
	for (size_t i = 0; i < io->in_bytes[0]; i++) {
		unsigned at = (unsigned)(i % CP_BYTES), copied = 0;
		for (unsigned k = 0; k < 9; k++)
			copied |= at >= off[k] && at < off[k] + size[k];
		uint8_t want = copied ? io->in[0][i] : 0;
		if (out[i] != want) {
			snprintf(why, sizeof why, "lane %zu byte %u: 0x%02x, the reference 0x%02x (%s)", i / CP_BYTES % 32,
			         at, out[i], want, copied ? "copied" : "not copied");
			return why;
		}
	}
	return NULL;
}

static const char *copy_check(const Test *t, const Io *io, const uint8_t *out)
{
	(void)t;
	for (size_t i = 0; i < io->in_bytes[0]; i++)
		if (out[i] != io->in[0][i]) {
			snprintf(why, sizeof why, "byte %zu: 0x%02x, copied from 0x%02x", i, out[i], io->in[0][i]);
			return why;
		}
	return NULL;
}

static void bulk_setup(const Test *t, Io *io)
{
	(void)t;
	const size_t in[1] = {NB * 2 * BULK};
	io_alloc(io, 1, in, NB * 2 * BULK + NB * 2 * 64 * 4);
	for (size_t i = 0; i < in[0]; i++)
		io->in[0][i] = (uint8_t)rnd();
}

static void bulk_launch(const OxFunc *f, const Io *io, OxDevPtr *din, OxDevPtr dout)
{
	(void)io;
	OxDevPtr elected = dout + NB * 2 * BULK;
	void *args[] = {&din[0], &dout, &elected};
	OX_CHECK(ox_launch_sync(f, ox_dim(NB, 1, 1), ox_dim(64, 1, 1), 0, args));
}

static const char *bulk_check(const Test *t, const Io *io, const uint8_t *out)
{
	const char *w = copy_check(t, io, out);
	const uint32_t *e = (const uint32_t *)(out + NB * 2 * BULK);
	if (w != NULL)
		return w;
	for (unsigned wi = 0; wi < NB * 2 * 2; wi++) {
		unsigned ones = 0;
		for (unsigned l = 0; l < 32; l++)
			ones += e[32 * wi + l] == 1 ? 1 : e[32 * wi + l] == 0 ? 0 : 100;
		if (ones != 1) {
			snprintf(why, sizeof why, "block %u round %u warp %u: elect_sync elected %u lanes", wi / 4,
			         wi / 2 % 2, wi % 2, ones);
			return why;
		}
	}
	return NULL;
}

static void copy_launch1(const OxFunc *f, const Io *io, OxDevPtr *din, OxDevPtr dout)
{
	(void)io;
	launch4(f, NB, 32, din, 1, dout);
}

/* ---- oxide_device::atomic's types (one thread per word, then under
 * contention) and the warp's lane masks and partial-warp reductions ---- */

enum { AT = NB * 64 };   /* threads: NB blocks of 64 */

static void at_single_setup(const Test *t, Io *io)
{
	(void)t;
	const size_t in[1] = {AT * 32};
	io_alloc(io, 1, in, AT * 128);
	uint64_t *x = (uint64_t *)io->in[0];
	for (unsigned i = 0; i < AT * 4; i++)
		x[i] = rnd();
}

static void launch_at(const OxFunc *f, const Io *io, OxDevPtr *din, OxDevPtr dout)
{
	(void)io;
	launch4(f, NB, 64, din, 1, dout);
}

static uint32_t rotl32(uint32_t v, unsigned k) { return v << k | v >> (32 - k); }
static uint64_t rotl64(uint64_t v, unsigned k) { return v << k | v >> (64 - k); }

/* atomic_single of lib.rs, step by step, for thread x's four values */
static void atomic_single_ref(const uint64_t *x, uint64_t *o)
{
	uint64_t a = x[0], b = x[1], c = x[2], d = x[3];
	uint32_t u = (uint32_t)b, s = (uint32_t)a, prev, ok, err, n, sub, upd;
	prev = u;   /* after the swap */
	ok = prev == (uint32_t)b;
	if (ok)
		u = (uint32_t)c;
	uint32_t cur = u;
	err = cur == ((uint32_t)b ^ 1);
	if (err)
		u = (uint32_t)d;
	n = u;
	u = ~(u & (uint32_t)a);
	sub = u;
	u -= (uint32_t)b;
	upd = u;
	u = rotl32(u, 7);
	memset(o, 0, 128);
	o[0] = u;
	o[1] = s | (uint64_t)u << 32;
	o[2] = prev | (uint64_t)ok << 32;
	o[3] = cur | (uint64_t)err << 32;
	o[4] = n | (uint64_t)sub << 32;
	o[5] = upd;
	int32_t v = (int32_t)c, m0, m1, m2, m3;
	m0 = v; v = v < (int32_t)d ? v : (int32_t)d;
	m1 = v; v = v > (int32_t)a ? v : (int32_t)a;
	m2 = v; v &= (int32_t)b;
	m3 = v; v |= (int32_t)c >> 3;
	v ^= (int32_t)d;
	o[6] = (uint32_t)v;
	o[7] = (uint32_t)m0 | (uint64_t)(uint32_t)m1 << 32;
	o[8] = (uint32_t)m2 | (uint64_t)(uint32_t)m3 << 32;
	uint64_t w = a, k0, k1, k2;
	k0 = w; w += b;
	k1 = w; w = w > c ? w : c;
	k2 = w; w = w < d ? w : d;
	o[9] = w;
	o[10] = k0 ^ rotl64(k1, 21) ^ rotl64(k2, 42);
	int64_t q = (int64_t)d;
	q = q > (int64_t)a ? q : (int64_t)a;
	int64_t f = q;
	if (q == (int64_t)b)
		q = (int64_t)c;
	o[11] = (uint64_t)q;
	o[12] = f == (int64_t)b ? (uint64_t)f ^ 1 : (uint64_t)f;
	float g = -0.0f;
	uint64_t z = 1;    /* -0.0 is not 0.0 */
	g += (float)(a % 1000) * 0.25f;
	g += -1.5f;
	g = fmaxf(g, -2.0f);
	g = fminf(g, (float)(b % 1000) * 0.5f);
	uint32_t nan = (uint32_t)d | 0x7f800001u;
	o[14] = f32_bits(g) | z << 32 | (uint64_t)1 << 33;
	(void)nan;
	o[13] = f32_bits(2.5f);
	double h = (double)(c % 4096);
	h += (double)(d % 4096) * 0.125;
	h = fmin(h, (double)(a % 8192));
	memcpy(&o[15], &h, 8);
}

static const char *at_single_check(const Test *t, const Io *io, const uint8_t *out)
{
	(void)t;
	const uint64_t *x = (const uint64_t *)io->in[0];
	for (unsigned i = 0; i < AT; i++) {
		uint64_t want[16], got[16];
		atomic_single_ref(x + 4 * i, want);
		memcpy(got, out + 128 * i, 128);
		for (unsigned k = 0; k < 16; k++)
			if (got[k] != want[k]) {
				snprintf(why, sizeof why, "thread %u word %u: 0x%016llx, the reference 0x%016llx", i, k,
				         (unsigned long long)got[k], (unsigned long long)want[k]);
				return why;
			}
	}
	return NULL;
}

static void at_contend_setup(const Test *t, Io *io)
{
	(void)t;
	const size_t in[1] = {AT * 8};
	io_alloc(io, 1, in, 64 + NB * 8);
	int64_t *v = (int64_t *)io->in[0];
	for (unsigned i = 0; i < AT; i++)
		v[i] = rnd_int(-1000000, 1000000);
}

static void at_contend_launch(const OxFunc *f, const Io *io, OxDevPtr *din, OxDevPtr dout)
{
	(void)io;
	OxDevPtr per_block = dout + 64;
	void *args[] = {&din[0], &dout, &per_block};
	OX_CHECK(ox_launch_sync(f, ox_dim(NB, 1, 1), ox_dim(64, 1, 1), 0, args));
}

static const char *at_contend_check(const Test *t, const Io *io, const uint8_t *out)
{
	(void)t;
	const int64_t *v = (const int64_t *)io->in[0];
	uint64_t g[8] = {0}, want[8] = {0};
	int64_t mn = 0, mx = 0;
	float fmx = 0;
	double sum = 0;
	memcpy(g, out, 64);
	for (unsigned i = 0; i < AT; i++) {
		mn = v[i] < mn ? v[i] : mn;
		mx = v[i] > mx ? v[i] : mx;
		fmx = fmaxf(fmx, (float)v[i]);
		sum += i;
		want[6] ^= (uint64_t)v[i];
	}
	want[0] = AT;
	memcpy(&want[1], &sum, 8);
	want[2] = 3 * AT;
	want[3] = (uint64_t)mn;
	want[4] = (uint64_t)mx;
	want[5] = f32_bits(fmx);
	uint32_t inc = 0, dec = 0;   /* atom.inc limit 100, atom.dec limit 50, AT times */
	for (unsigned i = 0; i < AT; i++) {
		inc = inc >= 100 ? 0 : inc + 1;
		dec = dec == 0 || dec > 50 ? 50 : dec - 1;
	}
	want[7] = inc | (uint64_t)dec << 32;
	for (unsigned k = 0; k < 8; k++)
		if (g[k] != want[k]) {
			snprintf(why, sizeof why, "global word %u: 0x%016llx, the reference 0x%016llx", k,
			         (unsigned long long)g[k], (unsigned long long)want[k]);
			return why;
		}
	for (unsigned b = 0; b < NB; b++) {
		uint32_t w[2];
		memcpy(w, out + 64 + 8 * b, 8);
		if (w[0] != 64 || w[1] != f32_bits(2016.0f)) {
			snprintf(why, sizeof why, "block %u: %u tickets taken once (64), f32 sum 0x%08x (2016.0)", b, w[0],
			         w[1]);
			return why;
		}
	}
	return NULL;
}

static void warp_setup(const Test *t, Io *io)
{
	(void)t;
	const size_t in[2] = {NB * 2 * 4, AT * 4};
	io_alloc(io, 2, in, AT * 48);
	uint32_t *m = (uint32_t *)io->in[0];
	float *x = (float *)io->in[1];
	for (unsigned w = 0; w < NB * 2; w++) {
		m[w] = (uint32_t)rnd() & (uint32_t)rnd();   /* about 8 lanes */
		m[w] = w % 4 == 0 ? 0xffffffffu : w % 4 == 1 ? 1u << (w % 32) : m[w] ? m[w] : 0x80000001u;
	}
	for (unsigned i = 0; i < AT; i++)
		x[i] = rnd_unit() * 100;
}

static void warp_launch(const OxFunc *f, const Io *io, OxDevPtr *din, OxDevPtr dout)
{
	(void)io;
	launch4(f, NB, 64, din, 2, dout);
}

static const char *warp_check(const Test *t, const Io *io, const uint8_t *out)
{
	(void)t;
	const uint32_t *m = (const uint32_t *)io->in[0];
	const float *x = (const float *)io->in[1];
	for (unsigned i = 0; i < AT; i++) {
		unsigned lane = i % 32, w = i / 32;
		uint32_t want[12] = {0}, got[12], mask = m[w];
		want[0] = 1u << lane;
		want[1] = want[0] - 1;
		want[2] = want[1] | want[0];
		want[3] = ~want[2];
		want[4] = ~want[1];
		want[5] = w % 2;
		want[6] = w;
		if (mask >> lane & 1) {
			float s = 0, mn = 0, mx = 0;
			double d = 0;
			for (unsigned l = 0, first = 1; l < 32; l++) {
				if (!(mask >> l & 1))
					continue;
				float v = x[32 * w + l];
				double dv = (double)v * 1.0e-3;
				s = first ? v : s + v;
				mn = first ? v : fminf(mn, v);
				mx = first ? v : fmaxf(mx, v);
				d = first ? dv : d + dv;
				first = 0;
			}
			uint64_t db;
			memcpy(&db, &d, 8);
			want[7] = f32_bits(s);
			want[8] = f32_bits(mn);
			want[9] = f32_bits(mx);
			want[10] = (uint32_t)db;
			want[11] = (uint32_t)(db >> 32);
		}
		memcpy(got, out + 48 * i, 48);
		for (unsigned k = 0; k < 12; k++)
			if (got[k] != want[k]) {
				snprintf(why, sizeof why, "thread %u (mask 0x%08x) word %u: 0x%08x, the reference 0x%08x", i,
				         mask, k, got[k], want[k]);
				return why;
			}
	}
	return NULL;
}

static const Test TESTS[] = {
	{"mma.m16n8k16.bf16 (exact)", "mma_bf16", CMP_EXACT, mma_setup, mma_launch, mma_check, M_EXACT},
	{"mma.m16n8k16.bf16 (random)", "mma_bf16", CMP_F32, mma_setup, mma_launch, mma_check, M_RANDOM},
	{"mma.m16n8k16.f16 (exact)", "mma_f16", CMP_EXACT, mma_setup, mma_launch, mma_check, M_EXACT},
	{"mma.m16n8k16.f16 (random)", "mma_f16", CMP_F32, mma_setup, mma_launch, mma_check, M_RANDOM},
	{"mma.m16n8k8.tf32 (exact)", "mma_tf32", CMP_EXACT, mma_setup, mma_launch, mma_check, M_EXACT},
	{"mma.m16n8k8.tf32 (random)", "mma_tf32", CMP_F32, mma_setup, mma_launch, mma_check, M_RANDOM},
	{"mma.m16n8k8.tf32 (13 low bits set: emulator truncates)", "mma_tf32", CMP_EXACT, mma_setup, mma_launch,
	 mma_check, M_LOWBITS},
	{"mma.m16n8k32.s32.s8.s8", "mma_s8", CMP_EXACT, mma_setup, mma_launch, mma_check, 0},
	{"mma.m16n8k32.s32.u8.u8", "mma_u8", CMP_EXACT, mma_setup, mma_launch, mma_check, 0},
	{"mma.m16n8k32.satfinite.s32.s8.s8", "mma_s8_sat", CMP_EXACT, mma_setup, mma_launch, mma_check, 0},
	{"mma.m16n8k32.satfinite.s32.u8.u8", "mma_u8_sat", CMP_EXACT, mma_setup, mma_launch, mma_check, 0},
	{"cvt.rna.tf32.f32", "tf32_cvt", CMP_EXACT, cvt_setup, cvt_launch, cvt_check, 0},
	{"ldmatrix x1/x2/x4 (.trans)", "ldmatrix_all", CMP_EXACT, ldm_setup, ldm_launch, ldm_check, 0},
	{"stmatrix x1/x2/x4 (.trans)", "stmatrix_all", CMP_EXACT, stm_setup, ldm_launch, stm_check, 0},
	{"cp.async ca 4/8/16, cg 16, wait_group 7..0, wait_all", "cp_async_all", CMP_EXACT, cp_setup, copy_launch1,
	 cp_check, 0},
	{"mbarrier + bulk_copy_g2s + elect_sync", "bulk_mbarrier", CMP_EXACT, bulk_setup, bulk_launch, bulk_check, 0},
	{"atomic types, one thread per word (every method, type and scope)", "atomic_single", CMP_EXACT,
	 at_single_setup, launch_at, at_single_check, 0},
	{"atomic types under contention (shared block scope, global device and system)", "atomic_contend",
	 CMP_EXACT, at_contend_setup, at_contend_launch, at_contend_check, 0},
	{"lanemask_eq/lt/le/gt/ge, warp ids, partial-warp f32/f64 reductions", "warp_masks", CMP_EXACT, warp_setup,
	 warp_launch, warp_check, 0},
};
enum { NTESTS = sizeof TESTS / sizeof TESTS[0] };

/* the inputs of test i (the same in every process: seeded by i) */
static void inputs(unsigned i, Io *io)
{
	memset(io, 0, sizeof *io);
	rng_state = 0x5eed0000u + i;
	TESTS[i].setup(&TESTS[i], io);
}

static void io_free(Io *io)
{
	for (unsigned i = 0; i < io->nin; i++)
		free(io->in[i]);
}

/* ---- one module's run (a child process): every test's output to fp ---- */

static int run_module(const char *path, FILE *fp)
{
	OxModule m;
	char dev[256];

	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&m, path));
	OX_CHECK(ox_device_name(dev, sizeof dev));
	fprintf(stderr, "%s: %s\n", path, dev);
	for (unsigned i = 0; i < NTESTS; i++) {
		Io io;
		OxFunc f;
		OxDevPtr din[4], dout;
		inputs(i, &io);
		uint8_t *out = malloc(io.out_bytes);
		if (out == NULL)
			return 2;
		OX_CHECK(ox_function(&f, &m, TESTS[i].kernel));
		for (unsigned k = 0; k < io.nin; k++) {
			OX_CHECK(ox_alloc(&din[k], io.in_bytes[k]));
			OX_CHECK(ox_copy_to_device(din[k], io.in[k], io.in_bytes[k]));
		}
		OX_CHECK(ox_alloc(&dout, io.out_bytes));
		OX_CHECK(ox_memset8(dout, 0, io.out_bytes));
		TESTS[i].launch(&f, &io, din, dout);
		OX_CHECK(ox_copy_from_device(out, dout, io.out_bytes));
		if (fwrite(out, 1, io.out_bytes, fp) != io.out_bytes)
			return 2;
		for (unsigned k = 0; k < io.nin; k++)
			OX_CHECK(ox_free(din[k]));
		OX_CHECK(ox_free(dout));
		free(out);
		io_free(&io);
	}
	ox_module_unload(&m);
	return fflush(fp) == 0 ? 0 : 2;
}

/* runs path in a child, its outputs into a temporary file (returned,
 * rewound), NULL when the child failed */
static FILE *run_child(const char *path)
{
	FILE *fp = tmpfile();
	int st;
	pid_t pid;

	if (fp == NULL)
		return NULL;
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		_exit(run_module(path, fp));
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "prims: the run of %s failed\n", path);
		fclose(fp);
		return NULL;
	}
	rewind(fp);
	return fp;
}

/* ---- comparing ---- */

static int pass, fail;

static unsigned ulps(uint32_t x, uint32_t y)
{
	int64_t a = x & 0x80000000u ? -(int64_t)(x & 0x7fffffffu) : x, b = y & 0x80000000u ? -(int64_t)(y & 0x7fffffffu) : y;
	int64_t d = a > b ? a - b : b - a;
	return d > 0xffffffff ? 0xffffffffu : (unsigned)d;
}

static void compare(unsigned i, const uint8_t *a, const uint8_t *b, size_t n, const char *na, const char *nb)
{
	const Test *t = &TESTS[i];
	unsigned tol = t->cmp == CMP_F32 && getenv("PRIMS_F32_ULPS") ? (unsigned)atoi(getenv("PRIMS_F32_ULPS")) : 0;
	size_t words = n / 4, differ = 0, over = 0;
	unsigned maxu = 0, shown = 0;
	char buf[4][200];
	Io io;
	const char *wa, *wb;

	for (size_t k = 0; k < words; k++) {
		uint32_t x, y;
		memcpy(&x, a + 4 * k, 4);
		memcpy(&y, b + 4 * k, 4);
		if (x == y)
			continue;
		differ++;
		unsigned u = t->cmp == CMP_F32 ? ulps(x, y) : 0xffffffffu;
		maxu = u > maxu ? u : maxu;
		/* random f32 inputs: the tensor cores' order and rounding of the
		 * sum are not the emulator's (one rounding of the exact sum), so
		 * the tolerance is the reference check's bound on each side */
		over += u > tol && t->mode != M_RANDOM;
		if (shown < 4)
			snprintf(buf[shown++], sizeof buf[0], "  word %zu: %s 0x%08x, %s 0x%08x", k, na, x, nb, y);
	}
	inputs(i, &io);
	wa = t->check(t, &io, a);
	if (wa != NULL)
		wa = strdup(wa);
	wb = t->check(t, &io, b);
	io_free(&io);
	int ok = over == 0 && wa == NULL && wb == NULL;
	printf("%s %s: %zu of %zu words differ", ok ? "PASS" : "FAIL", t->name, differ, words);
	if (t->cmp == CMP_F32 && differ)
		printf(t->mode == M_RANDOM ? " (at most %u ulp apart; each within 2^-16 of the exact sum, the stated "
		                             "tolerance)" : " (at most %u ulp; tolerance PRIMS_F32_ULPS=%u)", maxu, tol);
	printf("\n");
	for (unsigned k = 0; k < shown; k++)
		printf("%s\n", buf[k]);
	if (wa != NULL)
		printf("  %s against the reference: %s\n", na, wa);
	if (wb != NULL)
		printf("  %s against the reference: %s\n", nb, wb);
	free((void *)wa);
	ok ? pass++ : fail++;
}

static int compare_modules(const char *pa, const char *pb)
{
	FILE *fa = run_child(pa), *fb = run_child(pb);
	if (fa == NULL || fb == NULL)
		return 1;
	for (unsigned i = 0; i < NTESTS; i++) {
		Io io;
		inputs(i, &io);
		size_t n = io.out_bytes;
		io_free(&io);
		uint8_t *a = malloc(n), *b = malloc(n);
		if (a == NULL || b == NULL || fread(a, 1, n, fa) != n || fread(b, 1, n, fb) != n) {
			fprintf(stderr, "prims: short results\n");
			return 1;
		}
		compare(i, a, b, n, "A", "B");
		free(a);
		free(b);
	}
	printf("A = %s, B = %s\n%d passed, %d failed\n", pa, pb, pass, fail);
	return fail != 0;
}

/* ---- --sweep: every f32 through cvt.rna.tf32.f32 ---- */

static int sweep(const char *path)
{
	enum { CHUNK = 1 << 26 };
	OxModule m;
	OxFunc f;
	OxDevPtr d;
	uint32_t *out = malloc(CHUNK * 4ull);
	unsigned long long bad = 0;

	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&m, path));
	OX_CHECK(ox_function(&f, &m, "tf32_cvt"));
	OX_CHECK(ox_alloc(&d, CHUNK * 4ull));
	for (uint64_t base = 0; base < (1ull << 32) && out != NULL; base += CHUNK) {
		uint32_t b32 = (uint32_t)base, n = CHUNK;
		void *args[] = {&b32, &n, &d};
		OX_CHECK(ox_launch_sync(&f, ox_dim(CHUNK / 256, 1, 1), ox_dim(256, 1, 1), 0, args));
		OX_CHECK(ox_copy_from_device(out, d, CHUNK * 4ull));
		for (uint32_t i = 0; i < CHUNK; i++) {
			uint32_t e = __oxide_host_cvt_rna_tf32_f32(bits_f32(b32 + i));
			if (out[i] != e && bad++ < 4)
				printf("  cvt.rna.tf32.f32(0x%08x): %s 0x%08x, emulator 0x%08x\n", b32 + i, path, out[i], e);
		}
	}
	printf("%s cvt.rna.tf32.f32 (all 2^32 f32): %llu differ from the emulator's\n", bad ? "FAIL" : "PASS", bad);
	printf("%d passed, %d failed\n", !bad, !!bad);
	return bad != 0 || out == NULL;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--sweep"))
		return sweep(argv[2]);
	if (argc != 3) {
		fprintf(stderr, "usage: %s A B | --sweep MODULE  (modules: .cubin, .ptx, or .so emulated)\n", argv[0]);
		return 2;
	}
	return compare_modules(argv[1], argv[2]);
}
