/* examples/warp_reduce/host.c: runs the kernels of src/lib.rs and checks
 * every result against the same algorithms on the CPU:
 *   warp_sum_scan(x: &[f32], scan: DisjointSlice<f32>, sums: &mut [f32]):
 *     per-warp shfl.down tree sums and shfl.up inclusive scans, bit-exact
 *     (the CPU replays the same additions in the same order);
 *   warp_votes(v: &[u32], out: &mut [u32]): butterfly sum of u64 values,
 *     an f64 broadcast, ballot, all, any, match_any, redux add and max;
 *   block_count(v: &[u32], counts: &mut [u32], lanes: &mut [u32]):
 *     bar.red.popc/.or/.and per block, lane ids, activemask.
 * PTX parameters: each slice is (pointer, length).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng_state = 0x2545f491u;

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

static OxDevPtr zeroed(size_t bytes)
{
	OxDevPtr d;

	OX_CHECK(ox_alloc(&d, bytes));
	OX_CHECK(ox_memset8(d, 0xee, bytes));
	return d;
}

static int check_sum_scan(const OxModule *mod)
{
	enum { N = 4096, BLOCK = 256 };
	static float x[N], scan[N], sums[N / 32], want_scan[N], want_sums[N / 32];
	uint64_t n = N, nw = N / 32;
	OxFunc fn;
	size_t bad = 0;

	for (size_t i = 0; i < N; i++)
		x[i] = (float)((int)(rng_next() % 2001) - 1000) / 64.0f +
		       (float)(rng_next() % 1000) * 1e-4f;
	/* the same shuffles, lane by lane */
	for (size_t w = 0; w < N / 32; w++) {
		float s[32], t[32], p[32];

		for (int l = 0; l < 32; l++)
			s[l] = p[l] = x[w * 32 + l];
		for (int off = 16; off > 0; off /= 2) {
			for (int l = 0; l < 32; l++)
				t[l] = l + off < 32 ? s[l + off] : s[l];
			for (int l = 0; l < 32; l++)
				s[l] += t[l];
		}
		want_sums[w] = s[0];
		for (int d = 1; d < 32; d *= 2) {
			for (int l = 0; l < 32; l++)
				t[l] = l >= d ? p[l - d] : p[l];
			for (int l = 0; l < 32; l++)
				if (l >= d)
					p[l] += t[l];
		}
		for (int l = 0; l < 32; l++)
			want_scan[w * 32 + l] = p[l];
	}
	OxDevPtr dx = upload(x, sizeof x), ds = zeroed(sizeof scan), dw = zeroed(sizeof sums);
	void *args[] = {&dx, &n, &ds, &n, &dw, &nw};
	OX_CHECK(ox_function(&fn, mod, "warp_sum_scan"));
	OX_CHECK(ox_launch_sync(&fn, ox_dim(N / BLOCK, 1, 1), ox_dim(BLOCK, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(scan, ds, sizeof scan));
	OX_CHECK(ox_copy_from_device(sums, dw, sizeof sums));
	for (size_t i = 0; i < N; i++)
		if (memcmp(&scan[i], &want_scan[i], 4) != 0 && bad++ < 5)
			printf("  scan[%zu] = %a, want %a\n", i, (double)scan[i], (double)want_scan[i]);
	for (size_t w = 0; w < N / 32; w++)
		if (memcmp(&sums[w], &want_sums[w], 4) != 0 && bad++ < 5)
			printf("  sums[%zu] = %a, want %a\n", w, (double)sums[w], (double)want_sums[w]);
	if (bad == 0)
		printf("PASS warp_sum_scan: %d warp sums (shfl.down) and %d scan "
		       "values (shfl.up) bit-exact\n", N / 32, N);
	else
		printf("FAIL warp_sum_scan: %zu values differ\n", bad);
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(ds));
	OX_CHECK(ox_free(dw));
	return bad != 0;
}

static int check_votes(const OxModule *mod)
{
	enum { N = 1024, BLOCK = 128, K = 8 };
	static const char *what[K] = {"xor-shuffle sum (u64)", "f64 broadcast", "ballot",
	                              "all", "any", "match_any", "redux add", "redux max"};
	static uint32_t v[N], out[N * K], want[N * K];
	uint64_t n = N, no = N * K;
	OxFunc fn;
	size_t bad = 0;

	for (size_t i = 0; i < N; i++) {
		size_t w = i / 32;
		v[i] = rng_next() % (w % 3 == 0 ? 1000 : 1500);
		if (v[i] == 7)
			v[i] = 8;
		if (w % 5 == 0 && i % 32 == w % 32)
			v[i] = 7;
	}
	for (size_t w = 0; w < N / 32; w++) {
		const uint32_t *x = v + w * 32;
		uint32_t sum = 0, max = 0, ballot = 0, all = 1, any = 0;

		for (int l = 0; l < 32; l++) {
			sum += x[l];
			max = x[l] > max ? x[l] : max;
			ballot |= (uint32_t)(x[l] % 2 == 1) << l;
			all &= x[l] < 1000;
			any |= x[l] == 7;
		}
		for (int l = 0; l < 32; l++) {
			uint32_t *o = want + (w * 32 + l) * K, match = 0;

			for (int j = 0; j < 32; j++)
				match |= (uint32_t)(x[j] % 4 == x[l] % 4) << j;
			o[0] = 32u ^ sum;
			o[1] = x[5];
			o[2] = ballot;
			o[3] = all;
			o[4] = any;
			o[5] = match;
			o[6] = sum;
			o[7] = max;
		}
	}
	OxDevPtr dv = upload(v, sizeof v), dout = zeroed(sizeof out);
	void *args[] = {&dv, &n, &dout, &no};
	OX_CHECK(ox_function(&fn, mod, "warp_votes"));
	OX_CHECK(ox_launch_sync(&fn, ox_dim(N / BLOCK, 1, 1), ox_dim(BLOCK, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(out, dout, sizeof out));
	for (size_t i = 0; i < N * K; i++)
		if (out[i] != want[i] && bad++ < 8)
			printf("  thread %zu %s: 0x%08x, want 0x%08x\n", i / K, what[i % K], out[i], want[i]);
	if (bad == 0)
		printf("PASS warp_votes: %d threads x %d results (shfl xor/idx 64-bit, "
		       "ballot, all, any, match_any, redux add/max)\n", N, K);
	else
		printf("FAIL warp_votes: %zu of %d results differ\n", bad, N * K);
	OX_CHECK(ox_free(dv));
	OX_CHECK(ox_free(dout));
	return bad != 0;
}

static int check_block_count(const OxModule *mod)
{
	enum { N = 1024, BLOCK = 128, NB = N / BLOCK };
	static uint32_t v[N], counts[NB], lanes[N];
	uint64_t n = N, nb = NB;
	OxFunc fn;
	size_t bad = 0;

	for (size_t i = 0; i < N; i++)
		v[i] = rng_next() % 100000;
	for (size_t b = 0; b < NB; b += 2)
		v[b * BLOCK + b] = 2000001;     /* even and big: any_big, !all_small */
	OxDevPtr dv = upload(v, sizeof v), dc = zeroed(sizeof counts), dl = zeroed(sizeof lanes);
	void *args[] = {&dv, &n, &dc, &nb, &dl, &n};
	OX_CHECK(ox_function(&fn, mod, "block_count"));
	OX_CHECK(ox_launch_sync(&fn, ox_dim(NB, 1, 1), ox_dim(BLOCK, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(counts, dc, sizeof counts));
	OX_CHECK(ox_copy_from_device(lanes, dl, sizeof lanes));
	for (size_t b = 0; b < NB; b++) {
		uint32_t c = 0, big = 0;

		for (size_t t = 0; t < BLOCK; t++) {
			c += v[b * BLOCK + t] % 2 == 0;
			big |= v[b * BLOCK + t] >= 1000000;
		}
		c += big ? 3000 : 0;
		if (counts[b] != c && bad++ < 5)
			printf("  counts[%zu] = %u, want %u\n", b, counts[b], c);
	}
	for (size_t i = 0; i < N; i++) {
		uint32_t t = (uint32_t)(i % BLOCK);
		uint32_t want = t % 32 | (t / 32) << 8 | 1u << 16 | 1u << 17;

		if (lanes[i] != want && bad++ < 10)
			printf("  lanes[%zu] = 0x%x, want 0x%x\n", i, lanes[i], want);
	}
	if (bad == 0)
		printf("PASS block_count: %d blocks' bar.red.popc/or/and, %d lane "
		       "ids and active masks\n", NB, N);
	else
		printf("FAIL block_count: %zu results differ\n", bad);
	OX_CHECK(ox_free(dv));
	OX_CHECK(ox_free(dc));
	OX_CHECK(ox_free(dl));
	return bad != 0;
}

int main(int argc, char **argv)
{
	OxModule mod;
	int failed = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE.ptx|MODULE.cubin\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	failed += check_sum_scan(&mod);
	failed += check_votes(&mod);
	failed += check_block_count(&mod);
	return failed != 0;
}
