/* examples/bench_kernels/host.c: runs the kernels of `make bench`
 * (src/lib.rs) at small sizes and checks every result against the CPU:
 *   sgemm_rb(a, b, c: DisjointSlice2D<f32>, k)  256 x 128 x 64, every
 *       element within k * 2^-22 * sum|a b| of a double reference (the
 *       kernel may fuse multiply-adds: #[kernel(contract)]);
 *   sgemm_db(a, b, c, k)  the same test at 256 x 384 x 72 (an odd number
 *       of k-steps), 128 x 256 x 8 (one) and 128 x 128 x 0 (C = 0);
 *   copy_f32x4(x, y)      4003 f32 (1000 vectors and a tail of 3), exact;
 *   reduce_sum(x, partial) 20003 f32 over 4 blocks: each block's partial
 *       bit for bit, the CPU replaying the same additions in the same order;
 *   histogram256(data, bins) 12005 u32 over 3 blocks, exact counts;
 *   softmax_rows(x, y)    16 rows of 4096, within 4 ulp-ish (2e-6 relative
 *       + 1e-30) of expf(x - max) / sum in double.
 * Also: an output that is not 16-byte aligned is left untouched.
 * PTX parameters: each slice is (pointer, length); DisjointSlice2D one
 * 24-byte {pointer, rows, cols}.
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {                 /* DisjointSlice2D<f32>, #[repr(C)] */
	OxDevPtr data;
	uint64_t rows, cols;
} View2D;

static OxModule mod;
static int failures;

static uint32_t rng_state = 0x2545f491u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static float rnd_f32(void)
{
	return (float)(rng_next() % 20001) / 10000.0f - 1.0f;
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
	OX_CHECK(ox_memset8(d, 0xff, bytes));
	return d;
}

static void launch(const char *name, OxDim3 grid, OxDim3 block, void **args)
{
	OxFunc fn;
	OX_CHECK(ox_function(&fn, &mod, name));
	OX_CHECK(ox_launch_sync(&fn, grid, block, 0, args));
}

static void verdict(const char *name, size_t bad, size_t n, const char *what)
{
	printf("%s %s: %zu/%zu %s\n", bad ? "FAIL" : "PASS", name, n - bad, n, what);
	failures += bad != 0;
}

/* C = A B by KERNEL (m x n x k, 128 x 128 tiles, 16 x 16 threads) against a
 * double reference: every element within k 2^-22 sum|a b| (exactly 0 when
 * k is 0) */
static void test_sgemm(const char *kernel, int M, int N, int K, const char *what)
{
	float *a = malloc(sizeof(float) * M * K + 4), *b = malloc(sizeof(float) * K * N + 4);
	float *c = malloc(sizeof(float) * M * N);
	for (int i = 0; i < M * K; i++)
		a[i] = rnd_f32();
	for (int i = 0; i < K * N; i++)
		b[i] = rnd_f32();
	/* k = 0: empty A and B, one element each so the allocations are real */
	OxDevPtr da = upload(a, sizeof(float) * (K ? M * K : 1)), db = upload(b, sizeof(float) * (K ? K * N : 1));
	OxDevPtr dc = poisoned(sizeof(float) * M * N);
	uint64_t alen = (uint64_t)M * K, blen = (uint64_t)K * N;
	uint32_t k = K;
	View2D cv = {dc, M, N};
	void *args[] = {&da, &alen, &db, &blen, &cv, &k};
	launch(kernel, ox_dim(N / 128, M / 128, 1), ox_dim(16, 16, 1), args);
	OX_CHECK(ox_copy_from_device(c, dc, sizeof(float) * M * N));
	size_t bad = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double want = 0, mag = 0;
			for (int p = 0; p < K; p++) {
				want += (double)a[i * K + p] * b[p * N + j];
				mag += fabs((double)a[i * K + p] * b[p * N + j]);
			}
			float got = c[i * N + j];
			if (!(fabs(got - want) <= K * ldexp(1, -22) * mag) && bad++ < 5)
				printf("FAIL %s: C[%d][%d] = %a, expected %a\n", kernel, i, j, got, want);
		}
	verdict(kernel, bad, (size_t)M * N, what);
	OX_CHECK(ox_free(da));
	OX_CHECK(ox_free(db));
	OX_CHECK(ox_free(dc));
	free(a);
	free(b);
	free(c);
}

static void test_copy(void)
{
	enum { N = 4003 };
	float x[N], y[N + 4];
	for (int i = 0; i < N; i++)
		x[i] = rnd_f32();
	OxDevPtr dx = upload(x, sizeof x), dy = poisoned(sizeof y);
	uint64_t n = N;
	void *args[] = {&dx, &n, &dy, &n};
	launch("copy_f32x4", ox_dim((N / 4 + 255) / 256, 1, 1), ox_dim(256, 1, 1), args);
	OX_CHECK(ox_copy_from_device(y, dy, sizeof(float) * N));
	size_t bad = 0;
	for (int i = 0; i < N; i++)
		bad += memcmp(&x[i], &y[i], sizeof(float)) != 0;
	verdict("copy_f32x4", bad, N, "elements copied (1000 vectors + 3)");
	/* y 4 bytes past a 16-byte boundary: as_vectors refuses it, no write */
	OxDevPtr dy1 = dy + 4;
	void *args1[] = {&dx, &n, &dy1, &n};
	uint32_t ones[N + 4];
	OX_CHECK(ox_memset8(dy, 0xff, sizeof y));
	launch("copy_f32x4", ox_dim((N / 4 + 255) / 256, 1, 1), ox_dim(256, 1, 1), args1);
	OX_CHECK(ox_copy_from_device(ones, dy, sizeof ones));
	bad = 0;
	for (int i = 0; i < N + 4; i++)
		bad += ones[i] != 0xffffffffu;
	verdict("copy_f32x4 misaligned output", bad, N + 4, "elements left untouched");
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dy));
}

/* lane 0 of a warp after shfl.down 16, 8, 4, 2, 1 (the kernel's order) */
static float warp_sum_cpu(const float *v0)
{
	float v[32];
	memcpy(v, v0, sizeof v);
	for (int off = 16; off > 0; off /= 2)
		for (int l = 0; l < 32; l++)
			v[l] = v[l] + (l + off < 32 ? v[l + off] : v[l]);
	return v[0];
}

static void test_reduce(void)
{
	enum { N = 20003, BLOCKS = 4, G = BLOCKS * 256 };
	static float x[N];
	float part[BLOCKS];
	for (int i = 0; i < N; i++)
		x[i] = rnd_f32();
	OxDevPtr dx = upload(x, sizeof x), dp = poisoned(sizeof part);
	uint64_t n = N, np = BLOCKS;
	void *args[] = {&dx, &n, &dp, &np};
	launch("reduce_sum", ox_dim(BLOCKS, 1, 1), ox_dim(256, 1, 1), args);
	OX_CHECK(ox_copy_from_device(part, dp, sizeof part));
	size_t bad = 0, nv = N / 4;
	for (int b = 0; b < BLOCKS; b++) {
		float ws[32] = {0};
		for (int w = 0; w < 8; w++) {
			float s[32];
			for (int l = 0; l < 32; l++) {
				size_t g = (size_t)b * 256 + w * 32 + l;
				float acc = 0;
				for (size_t i = g; i < nv; i += G)
					acc += (x[4 * i] + x[4 * i + 1]) + (x[4 * i + 2] + x[4 * i + 3]);
				if (g < N - 4 * nv)
					acc += x[4 * nv + g];
				s[l] = acc;
			}
			ws[w] = warp_sum_cpu(s);
		}
		float want = warp_sum_cpu(ws);
		if (memcmp(&want, &part[b], sizeof want) && bad++ < 5)
			printf("FAIL reduce_sum: block %d = %a, expected %a\n", b, part[b], want);
	}
	verdict("reduce_sum", bad, BLOCKS, "block sums bit-exact (20003 f32, grid-stride over 1024 threads)");
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dp));
}

static void test_histogram(void)
{
	enum { N = 12005, BLOCKS = 3 };
	static uint32_t data[N];
	uint32_t bins[256], want[256] = {0};
	for (int i = 0; i < N; i++) {
		data[i] = rng_next();
		want[data[i] & 255]++;
	}
	memset(bins, 0, sizeof bins);
	OxDevPtr dd = upload(data, sizeof data), db = upload(bins, sizeof bins);
	uint64_t n = N, nb = 256;
	void *args[] = {&dd, &n, &db, &nb};
	launch("histogram256", ox_dim(BLOCKS, 1, 1), ox_dim(256, 1, 1), args);
	OX_CHECK(ox_copy_from_device(bins, db, sizeof bins));
	size_t bad = 0;
	for (int i = 0; i < 256; i++)
		if (bins[i] != want[i] && bad++ < 5)
			printf("FAIL histogram256: bin %d = %u, expected %u\n", i, bins[i], want[i]);
	verdict("histogram256", bad, 256, "bins exact (12005 values, 3 blocks)");
	OX_CHECK(ox_free(dd));
	OX_CHECK(ox_free(db));
}

static void test_softmax(void)
{
	enum { ROWS = 16, COLS = 4096 };
	size_t n = (size_t)ROWS * COLS;
	float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
	for (size_t i = 0; i < n; i++)
		x[i] = rnd_f32() * 8.0f;
	OxDevPtr dx = upload(x, n * sizeof *x), dy = poisoned(n * sizeof *y);
	uint64_t len = n;
	void *args[] = {&dx, &len, &dy, &len};
	launch("softmax_rows", ox_dim(1, ROWS / 8, 1), ox_dim(32, 8, 1), args);
	OX_CHECK(ox_copy_from_device(y, dy, n * sizeof *y));
	size_t bad = 0;
	for (int r = 0; r < ROWS; r++) {
		const float *xr = x + (size_t)r * COLS;
		float m = -INFINITY;
		double s = 0;
		for (int c = 0; c < COLS; c++)
			m = fmaxf(m, xr[c]);
		for (int c = 0; c < COLS; c++)
			s += exp((double)xr[c] - m);
		for (int c = 0; c < COLS; c++) {
			double want = exp((double)xr[c] - m) / s;
			float got = y[(size_t)r * COLS + c];
			if (!(fabs(got - want) <= 2e-6 * want + 1e-30) && bad++ < 5)
				printf("FAIL softmax_rows: [%d][%d] = %a, expected %a\n", r, c, got, want);
		}
	}
	verdict("softmax_rows", bad, n, "elements within tolerance (16 rows x 4096, one warp per row)");
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dy));
	free(x);
	free(y);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	test_sgemm("sgemm_rb", 256, 128, 64, "elements within tolerance (256x128x64, 128x128 tiles, 8x8 per thread)");
	test_sgemm("sgemm_db", 256, 384, 72, "elements within tolerance (256x384x72: 9 k-steps, both stages; 2x2 pieces of 4x4)");
	test_sgemm("sgemm_db", 128, 256, 8, "elements within tolerance (128x256x8: one k-step)");
	test_sgemm("sgemm_db", 128, 128, 0, "elements exactly 0 (k = 0: no k-step)");
	test_copy();
	test_reduce();
	test_histogram();
	test_softmax();
	return failures != 0;
}
