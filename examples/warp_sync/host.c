/* examples/warp_sync/host.c: runs the kernels of src/lib.rs in blocks of
 * 128 threads and checks every result against the CUDA semantics written
 * out on the CPU:
 *   shfl_segments(v: &[u32], out: &mut [u32]): shuffles with a width
 *     (idx, up, down, xor; u32, u64, f64, i32), 29 results per thread;
 *   match_all(v: &[u32], w: &[u64], out: &mut [u32]): match.all.sync over
 *     the warp (u32, u64) and over half-warps;
 *   warp_exchange(v: &[u32], out: &mut [u32]): shared memory exchanged
 *     across sync_warp (bar.warp.sync), whole and half warps;
 *   named_barriers(v: &[u32], out: &mut [u32]): barrier.arrive/sync with
 *     thread counts: producer and consumer warps, two half-block
 *     barriers used three times in a row, a whole-block barrier.
 * PTX parameters: each slice is (pointer, length).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 128u
#define NBLOCKS 8u
#define N (BLOCK * NBLOCKS)

static uint32_t rng_state = 0x6b43a9b5u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static OxDevPtr upload(const void *p, size_t bytes)
{
	OxDevPtr d;

	OX_CHECK(ox_alloc(&d, bytes));
	OX_CHECK(ox_copy_to_device(d, p, bytes));
	return d;
}

static OxDevPtr poisoned(size_t bytes)
{
	OxDevPtr d;

	OX_CHECK(ox_alloc(&d, bytes));
	OX_CHECK(ox_memset8(d, 0xee, bytes));
	return d;
}

/* Runs kernel `name` over N threads with (v, out) or (v, w, out) and
 * copies out back. */
static void run(const OxModule *mod, const char *name, const uint32_t *v,
                const uint64_t *w, uint32_t *out, size_t nout)
{
	uint64_t n = N, no = nout;
	OxDevPtr dv = upload(v, N * sizeof *v), dout = poisoned(nout * 4), dw = 0;
	void *args2[] = {&dv, &n, &dout, &no};
	void *args3[] = {&dv, &n, &dw, &n, &dout, &no};
	OxFunc fn;

	if (w != NULL)
		dw = upload(w, N * sizeof *w);
	OX_CHECK(ox_function(&fn, mod, name));
	OX_CHECK(ox_launch_sync(&fn, ox_dim(NBLOCKS, 1, 1), ox_dim(BLOCK, 1, 1),
	                        0, w != NULL ? args3 : args2));
	OX_CHECK(ox_copy_from_device(out, dout, nout * 4));
	OX_CHECK(ox_free(dv));
	OX_CHECK(ox_free(dout));
	if (w != NULL)
		OX_CHECK(ox_free(dw));
}

/* Compares got with want; prints the first differences. */
static size_t compare(const char *kernel, const char *const *what, size_t k,
                      const uint32_t *got, const uint32_t *want, size_t n)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i] && bad++ < 8)
			printf("  %s: thread %zu, %s: 0x%08x, want 0x%08x\n",
			       kernel, i / k, what[i % k], got[i], want[i]);
	return bad;
}

/* CUDA's shuffles with a width, lane by lane (the CUDA Programming Guide's
 * rules; offsets and lanes use their low 5 bits, as the hardware does):
 * the source lane of `lane`, or lane itself when there is none. */
enum { IDX, UP, DOWN, XOR };

static unsigned shfl_src(int mode, unsigned lane, unsigned b, unsigned width)
{
	unsigned seg = lane / width * width, src;

	b &= 31;
	switch (mode) {
	case IDX:
		return seg + b % width;
	case UP:
		return lane - seg >= b ? lane - b : lane;
	case DOWN:
		return lane - seg + b < width ? lane + b : lane;
	default:
		src = lane ^ b;     /* an earlier segment is fine, a later not */
		return src / width <= lane / width ? src : lane;
	}
}

static int check_segments(const OxModule *mod)
{
	enum { K = 29 };
	static const char *what[K] = {
		"w2 idx", "w2 up", "w2 down", "w2 xor in", "w2 xor across",
		"w4 idx", "w4 up", "w4 down", "w4 xor in", "w4 xor across",
		"w8 idx", "w8 up", "w8 down", "w8 xor in", "w8 xor across",
		"w16 idx", "w16 up", "w16 down", "w16 xor in", "w16 xor across",
		"w32 idx", "w32 up", "w32 down", "w32 xor in", "w32 xor across",
		"u64 down w8 (low)", "u64 down w8 (high)", "f64 up w16",
		"i32 xor w4"};
	static uint32_t v[N], out[N * K], want[N * K];
	size_t bad;

	for (size_t i = 0; i < N; i++)
		v[i] = rng_next() % 1000000;
	for (size_t i = 0; i < N; i++) {
		const uint32_t *x = v + i / 32 * 32;
		unsigned lane = (unsigned)(i % 32), k = 0;
		uint32_t *o = want + i * K;

		for (unsigned w = 2; w <= 32; w *= 2, k += 5) {
			o[k] = x[shfl_src(IDX, lane, lane * 7 + 3, w)];
			o[k + 1] = x[shfl_src(UP, lane, 1 + lane % 3, w)];
			o[k + 2] = x[shfl_src(DOWN, lane, 2, w)];
			o[k + 3] = x[shfl_src(XOR, lane, w / 2 | 1, w)];
			o[k + 4] = x[shfl_src(XOR, lane, w | 1, w)];
		}
		/* the u64 is x << 32 | (x ^ 0xdeadbeef): both halves move */
		o[25] = x[shfl_src(DOWN, lane, 3, 8)] ^ 0xdeadbeefu;
		o[26] = x[shfl_src(DOWN, lane, 3, 8)];
		o[27] = x[shfl_src(UP, lane, 2, 16)];
		o[28] = x[shfl_src(XOR, lane, 6, 4)];
	}
	run(mod, "shfl_segments", v, NULL, out, N * K);
	bad = compare("shfl_segments", what, K, out, want, N * K);
	if (bad == 0)
		printf("PASS shfl_segments: %u threads x %d shuffles with widths "
		       "2..32 (idx, up, down, xor; u32, u64, f64, i32)\n", N, K);
	else
		printf("FAIL shfl_segments: %zu of %u results differ\n", bad, N * K);
	return bad != 0;
}

/* match.all over the lanes [lo, lo + n) of the warp of thread i: their
 * mask when all hold the same value, else 0. */
static uint32_t match_all_of(const void *vals, size_t size, size_t warp,
                             unsigned lo, unsigned n)
{
	const unsigned char *p = (const unsigned char *)vals + warp * 32 * size;
	uint32_t mask = 0;

	for (unsigned l = lo; l < lo + n; l++) {
		if (memcmp(p + l * size, p + lo * size, size) != 0)
			return 0;
		mask |= 1u << l;
	}
	return mask;
}

static int check_match_all(const OxModule *mod)
{
	enum { K = 3 };
	static const char *what[K] = {"match_all u32 (warp)",
	                              "match_all u64 (warp)",
	                              "match_all u32 (half-warp)"};
	static uint32_t v[N], out[N * K], want[N * K];
	static uint64_t w[N];
	size_t bad;

	/* warp % 4 == 0: all equal; 1: the low half equal, the high half
	 * not; 2: all equal but one lane; 3: random. The u64s equal in
	 * their low words everywhere, and in their high words in warps
	 * 0 and 1 only (a 32-bit compare would miss the difference). */
	for (size_t i = 0; i < N; i++) {
		size_t warp = i / 32, lane = i % 32;

		switch (warp % 4) {
		case 0: v[i] = (uint32_t)warp * 1000 + 17; break;
		case 1: v[i] = lane < 16 ? 42 : (uint32_t)lane; break;
		case 2: v[i] = lane == warp % 32 ? 7 : 8; break;
		default: v[i] = rng_next() % 4; break;
		}
		w[i] = (uint64_t)(warp % 4 < 2 ? 99 : lane % 2) << 32 | 0x12345678u;
	}
	for (size_t i = 0; i < N; i++) {
		size_t warp = i / 32;
		unsigned half = i % 32 < 16 ? 0 : 16;

		want[i * K] = match_all_of(v, 4, warp, 0, 32);
		want[i * K + 1] = match_all_of(w, 8, warp, 0, 32);
		want[i * K + 2] = match_all_of(v, 4, warp, half, 16);
	}
	run(mod, "match_all", v, w, out, N * K);
	bad = compare("match_all", what, K, out, want, N * K);
	if (bad == 0)
		printf("PASS match_all: %u threads x %d match.all.sync results "
		       "(u32, u64, half-warp masks)\n", N, K);
	else
		printf("FAIL match_all: %zu of %u results differ\n", bad, N * K);
	return bad != 0;
}

static int check_warp_exchange(const OxModule *mod)
{
	enum { K = 2 };
	static const char *what[K] = {"whole warp, next lane",
	                              "half warp, next lane"};
	static uint32_t v[N], out[N * K], want[N * K];
	size_t bad;

	for (size_t i = 0; i < N; i++)
		v[i] = rng_next() % 1000000;
	for (size_t i = 0; i < N; i++) {
		size_t base = i / 32 * 32, lane = i % 32;
		size_t half = base + (lane < 16 ? 0 : 16);
		size_t j = half + (lane % 16 + 1) % 16;

		want[i * K] = 3 * v[base + (lane + 1) % 32];
		want[i * K + 1] = 3 * v[j] + v[j];
	}
	run(mod, "warp_exchange", v, NULL, out, N * K);
	bad = compare("warp_exchange", what, K, out, want, N * K);
	if (bad == 0)
		printf("PASS warp_exchange: %u threads read their neighbour's "
		       "shared-memory word after sync_warp (whole and half "
		       "warps)\n", N);
	else
		printf("FAIL warp_exchange: %zu of %u results differ\n", bad, N * K);
	return bad != 0;
}

static int check_named_barriers(const OxModule *mod)
{
	enum { K = 4 };
	static const char *what[K] = {"producer/consumer (barrier 1)",
	                              "half-block reversal (barriers 2, 3)",
	                              "half-block reversal, reused barrier",
	                              "whole block (barrier 4)"};
	static uint32_t v[N], out[N * K], want[N * K];
	size_t bad;

	for (size_t i = 0; i < N; i++)
		v[i] = rng_next() % 1000000;
	for (size_t i = 0; i < N; i++) {
		size_t base = i / BLOCK * BLOCK, t = i % BLOCK;
		size_t lo = t < 64 ? 0 : 64, r = base + lo + 63 - (t - lo);
		size_t u = (t + 64) % BLOCK;

		want[i * K] = t >= 64 ? 2 * v[i] + 1 : 2 * v[base + 64 + 63 - t] + 1;
		want[i * K + 1] = v[r] + 7;
		want[i * K + 2] = v[r] * 5 + (uint32_t)(r - base);
		want[i * K + 3] = v[base + u] * 5 + (uint32_t)u;
	}
	run(mod, "named_barriers", v, NULL, out, N * K);
	bad = compare("named_barriers", what, K, out, want, N * K);
	if (bad == 0)
		printf("PASS named_barriers: %u threads x %d results through "
		       "barrier.arrive / barrier.sync with thread counts\n", N, K);
	else
		printf("FAIL named_barriers: %zu of %u results differ\n", bad, N * K);
	return bad != 0;
}

int main(int argc, char **argv)
{
	OxModule mod;
	int failed = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE.ptx|MODULE.cubin|MODULE.so\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	failed += check_segments(&mod);
	failed += check_match_all(&mod);
	failed += check_warp_exchange(&mod);
	failed += check_named_barriers(&mod);
	ox_module_unload(&mod);
	return failed != 0;
}
