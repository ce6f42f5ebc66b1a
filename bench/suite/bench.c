/* bench/suite/bench.c: make bench's workloads, oxidec against nvcc (the
 * same algorithm in CUDA C, bench/suite/NAME_ref.cu) and, where it applies,
 * cuBLAS (sgemm) or the float4 copy ceiling (the copy twin), all loaded
 * and launched through src/runtime/oxrt.c in one process. Each workload's
 * results are checked first (oxidec against nvcc bit for bit where both
 * round the same way, and against a CPU reference); a workload whose check
 * fails prints FAIL and is not timed. Then the two kernels run
 * alternately, the order flipping every round, each launch timed with CUDA
 * events: median of 31 after 3 warm-up rounds. Prints one markdown table
 * row per workload (tests/gpu/bench.sh prints the header and the date,
 * GPU and commit above it):
 *   | workload | module | oxidec ms | nvcc ms | ratio | ceiling | oxidec regs / spill | nvcc regs / spill |
 * ratio: oxidec's time / nvcc's; ceiling: cuBLAS's (sgemm) or the copy
 * twin's (copy) time as a share of oxidec's; regs / spill: from REGS, lines
 * "KERNEL REGISTERS SPILL_BYTES" (ptxas -v, which bench.sh runs on both).
 * usage: bench EXAMPLES_DIR KIND REF_DIR REGS
 *   EXAMPLES_DIR/{bench_kernels,transpose,stencil2d,warp_reduce}.KIND,
 *   REF_DIR/{suite_ref,sgemm_rb_ref}.cubin (sgemm_rb_ref.cu holds the twins
 *   of sgemm_rb and sgemm_db) */
#include "../../src/runtime/oxrt.h"

#include <cublas_v2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUNS 31

typedef struct {                 /* DisjointSlice2D<f32>, #[repr(C)] */
	OxDevPtr data;
	uint64_t rows, cols;
} View2D;

static OxModule ox_bk, ox_tr, ox_st, ox_wr, ref_suite, ref_sgemm;
static const char *kind, *regs_path;
static int failures;
static OxEvent e0, e1;

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

static int cmp_float(const void *pa, const void *pb)
{
	float a = *(const float *)pa, b = *(const float *)pb;
	return (a > b) - (a < b);
}

static OxDevPtr dev(size_t bytes)
{
	OxDevPtr d;
	OX_CHECK(ox_alloc(&d, bytes));
	OX_CHECK(ox_memset8(d, 0xff, bytes));
	return d;
}

static OxDevPtr upload(const void *p, size_t bytes)
{
	OxDevPtr d = dev(bytes);
	OX_CHECK(ox_copy_to_device(d, p, bytes));
	return d;
}

static void *download(OxDevPtr d, size_t bytes)
{
	void *p = malloc(bytes);
	if (!p) {
		fprintf(stderr, "bench: out of memory\n");
		exit(1);
	}
	OX_CHECK(ox_copy_from_device(p, d, bytes));
	return p;
}

/* "REGS / SPILL" of kernel name from the ptxas -v summary, "?" if absent */
static const char *regs_of(const char *name, char *buf, size_t n)
{
	FILE *f = fopen(regs_path, "r");
	char k[256];
	unsigned r, s;
	snprintf(buf, n, "?");
	while (f && fscanf(f, "%255s %u %u", k, &r, &s) == 3)
		if (!strcmp(k, name))
			snprintf(buf, n, "%u / %u", r, s);
	if (f)
		fclose(f);
	return buf;
}

/* One side of a timed pair: a kernel launch, or cuBLAS (fn NULL). */
typedef struct {
	OxFunc fn;
	OxDim3 grid, block;
	void **args;
	void (*call)(void);           /* instead of fn when set */
} Side;

static void run_side(const Side *s)
{
	if (s->call)
		s->call();
	else
		OX_CHECK(ox_launch(&s->fn, s->grid, s->block, 0, s->args));
}

static void run_sync(const Side *s)
{
	run_side(s);
	OX_CHECK(ox_synchronize());
}

/* medians of RUNS timed launches of each side, alternating the order */
static void time_sides(Side *s, int n, double *med)
{
	float ms[3][RUNS];
	for (int r = -3; r < RUNS; r++)
		for (int i = 0; i < n; i++) {
			int k = (i + r + 3) % n;
			OX_CHECK(ox_event_record(&e0));
			run_side(&s[k]);
			OX_CHECK(ox_event_record(&e1));
			OX_CHECK(ox_synchronize());
			if (r >= 0)
				OX_CHECK(ox_event_elapsed_ms(&ms[k][r], &e0, &e1));
		}
	for (int k = 0; k < n; k++) {
		qsort(ms[k], RUNS, sizeof(float), cmp_float);
		med[k] = ms[k][RUNS / 2];
	}
}

static void side(Side *s, OxModule *m, const char *name, OxDim3 grid, OxDim3 block, void **args)
{
	memset(s, 0, sizeof *s);
	OX_CHECK(ox_function(&s->fn, m, name));
	s->grid = grid;
	s->block = block;
	s->args = args;
}

/* the table row; ceiling < 0: none */
static void row(const char *workload, const char *ox_name, const char *ref_name, const double *med, double ceiling,
                const char *what)
{
	char ro[64], rr[64], c[64] = "";
	if (ceiling >= 0)
		snprintf(c, sizeof c, "%.1f %% of %s", 100.0 * ceiling / med[0], what);
	printf("| %s | .%s | %.4f | %.4f | %.3f | %s | %s | %s |\n", workload, kind, med[0], med[1], med[0] / med[1], c,
	       regs_of(ox_name, ro, sizeof ro), regs_of(ref_name, rr, sizeof rr));
	fflush(stdout);
}

static int check(const char *workload, size_t bad, size_t n, const char *what)
{
	if (bad) {
		printf("| %s | .%s | FAIL: %zu of %zu %s | | | | | |\n", workload, kind, bad, n, what);
		failures++;
	}
	return bad == 0;
}

static size_t bits_differ(const void *a, const void *b, size_t n)
{
	const uint32_t *x = a, *y = b;
	size_t d = 0;
	for (size_t i = 0; i < n; i++)
		d += x[i] != y[i];
	return d;
}

/* ------------------------------------------------------------ sgemm */

static cublasHandle_t blas;
static int gm, gn, gk;
static OxDevPtr ga, gb, gc;

static void cublas_sgemm(void)
{
	const float one = 1.0f, zero = 0.0f;
	/* row-major C = A B is column-major C^T = B^T A^T */
	if (cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, gn, gm, gk, &one, (const float *)gb, gn, (const float *)ga, gk,
	                &zero, (float *)gc, gn) != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "bench: cublasSgemm failed\n");
		exit(1);
	}
}

/* sampled elements of C within k 2^-22 sum|ab| of a double reference */
static size_t sgemm_bad(const float *a, const float *b, const float *c, size_t m, size_t n, size_t k)
{
	size_t bad = 0;
	for (int s = 0; s < 4096; s++) {
		size_t i = rng_next() % m, j = rng_next() % n;
		double want = 0, mag = 0;
		for (size_t p = 0; p < k; p++) {
			want += (double)a[i * k + p] * b[p * n + j];
			mag += fabs((double)a[i * k + p] * b[p * n + j]);
		}
		bad += !(fabs(c[i * n + j] - want) <= k * ldexp(1, -22) * mag);
	}
	return bad;
}

/* WORKLOAD: C = A B at 4096^3 by oxidec's OX_NAME, nvcc's REF_NAME (the
 * same algorithm) and cuBLAS, the three checked and timed in one rotation */
static void bench_sgemm(const char *workload, const char *ox_name, const char *ref_name)
{
	const size_t M = 4096, N = 4096, K = 4096;
	float *a = malloc(M * K * 4), *b = malloc(K * N * 4);
	for (size_t i = 0; i < M * K; i++)
		a[i] = rnd_f32();
	for (size_t i = 0; i < K * N; i++)
		b[i] = rnd_f32();
	OxDevPtr da = upload(a, M * K * 4), db = upload(b, K * N * 4), dc[3] = {dev(M * N * 4), dev(M * N * 4), dev(M * N * 4)};
	uint64_t alen = M * K, blen = K * N;
	uint32_t k = K;
	View2D cv[2] = {{dc[0], M, N}, {dc[1], M, N}};
	void *args[2][6] = {{&da, &alen, &db, &blen, &cv[0], &k}, {&da, &alen, &db, &blen, &cv[1], &k}};
	Side s[3];
	side(&s[0], &ox_bk, ox_name, ox_dim(N / 128, M / 128, 1), ox_dim(16, 16, 1), args[0]);
	side(&s[1], &ref_sgemm, ref_name, ox_dim(N / 128, M / 128, 1), ox_dim(16, 16, 1), args[1]);
	memset(&s[2], 0, sizeof s[2]);
	s[2].call = cublas_sgemm;
	gm = (int)M, gn = (int)N, gk = (int)K, ga = da, gb = db, gc = dc[2];
	for (int i = 0; i < 3; i++)
		run_sync(&s[i]);
	float *c[3];
	size_t bad = 0;
	for (int i = 0; i < 3; i++) {
		c[i] = download(dc[i], M * N * 4);
		bad += sgemm_bad(a, b, c[i], M, N, K);
	}
	fprintf(stderr, "%s: oxidec and nvcc differ in %zu of %zu elements (bits)\n", ox_name,
	        bits_differ(c[0], c[1], M * N), M * N);
	if (check(workload, bad, 3 * 4096, "sampled elements (oxidec, nvcc, cuBLAS) outside tolerance")) {
		double med[3];
		time_sides(s, 3, med);
		fprintf(stderr, "%s: %.1f / %.1f / %.1f TFLOP/s (oxidec / nvcc / cuBLAS)\n", ox_name,
		        2e-9 * M * N * K / med[0], 2e-9 * M * N * K / med[1], 2e-9 * M * N * K / med[2]);
		row(workload, ox_name, ref_name, med, med[2], "cuBLAS");
	}
	for (int i = 0; i < 3; i++) {
		free(c[i]);
		OX_CHECK(ox_free(dc[i]));
	}
	OX_CHECK(ox_free(da));
	OX_CHECK(ox_free(db));
	free(a);
	free(b);
}

/* ------------------------------------------ 1-D workloads, two sides */

/* x (n f32 or u32 from gen), two outputs of out_n words; runs both sides
 * once, compares them bit for bit; then verify() on oxidec's; then times */
static void bench_1d(const char *workload, const char *name, const char *ref, size_t n, size_t out_n, int grid,
                     int block, int zero_out, size_t (*verify)(const uint32_t *x, const uint32_t *y, size_t n),
                     int ceiling)
{
	uint32_t *x = malloc(n * 4);
	for (size_t i = 0; i < n; i++)
		x[i] = verify ? rng_next() : 0;
	if (strstr(name, "histogram") == NULL)
		for (size_t i = 0; i < n; i++) {
			float f = rnd_f32() * 8.0f;
			memcpy(&x[i], &f, 4);
		}
	OxDevPtr dx = upload(x, n * 4), dy[2] = {dev(out_n * 4), dev(out_n * 4)};
	uint64_t len = n, olen = out_n;
	void *args[2][4] = {{&dx, &len, &dy[0], &olen}, {&dx, &len, &dy[1], &olen}};
	Side s[2];
	OxDim3 g = strstr(name, "softmax") ? ox_dim(1, (unsigned)grid, 1) : ox_dim((unsigned)grid, 1, 1);
	OxDim3 b = strstr(name, "softmax") ? ox_dim(32, 8, 1) : ox_dim((unsigned)block, 1, 1);
	side(&s[0], &ox_bk, name, g, b, args[0]);
	side(&s[1], &ref_suite, ref, g, b, args[1]);
	for (int i = 0; i < 2; i++) {
		if (zero_out)
			OX_CHECK(ox_memset8(dy[i], 0, out_n * 4));
		run_sync(&s[i]);
	}
	uint32_t *y[2] = {download(dy[0], out_n * 4), download(dy[1], out_n * 4)};
	size_t bad = bits_differ(y[0], y[1], out_n);
	if (check(workload, bad, out_n, "outputs differ from nvcc's (bits)") &&
	    check(workload, verify(x, y[0], n), out_n, "outputs wrong against the CPU")) {
		double med[2];
		time_sides(s, 2, med);
		char rn[64];
		snprintf(rn, sizeof rn, "%s", ref);
		row(workload, name, rn, med, ceiling ? med[1] : -1, "the float4 copy");
	}
	free(y[0]);
	free(y[1]);
	free(x);
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dy[0]));
	OX_CHECK(ox_free(dy[1]));
}

static size_t verify_copy(const uint32_t *x, const uint32_t *y, size_t n)
{
	return bits_differ(x, y, n);
}

static size_t verify_reduce(const uint32_t *x, const uint32_t *y, size_t n)
{
	double want = 0, mag = 0, got = 0;
	for (size_t i = 0; i < n; i++) {
		float f;
		memcpy(&f, &x[i], 4);
		want += f;
		mag += fabs(f);
	}
	for (size_t i = 0; i < 1056; i++) {
		float f;
		memcpy(&f, &y[i], 4);
		got += f;
	}
	return !(fabs(got - want) <= 1e-5 * mag);
}

static size_t verify_histogram(const uint32_t *x, const uint32_t *y, size_t n)
{
	static uint32_t want[256];
	size_t bad = 0;
	memset(want, 0, sizeof want);
	for (size_t i = 0; i < n; i++)
		want[x[i] & 255]++;
	for (int i = 0; i < 256; i++)
		bad += want[i] != y[i];
	return bad;
}

/* every row of the softmax sums to 1 within 1e-4 */
static size_t verify_softmax(const uint32_t *x, const uint32_t *y, size_t n)
{
	size_t bad = 0;
	(void)x;
	for (size_t r = 0; r < n / 4096; r++) {
		double s = 0;
		for (size_t c = 0; c < 4096; c++) {
			float f;
			memcpy(&f, &y[r * 4096 + c], 4);
			s += f;
		}
		bad += !(fabs(s - 1.0) <= 1e-4);
	}
	return bad;
}

/* --------------------------------------------- the examples' kernels */

static void bench_2d(const char *workload, OxModule *m, const char *name, const char *ref, unsigned w, unsigned h,
                     unsigned tile, unsigned bx, unsigned by)
{
	size_t n = (size_t)w * h;
	float *x = malloc(n * 4);
	for (size_t i = 0; i < n; i++)
		x[i] = rnd_f32();
	OxDevPtr dx = upload(x, n * 4), dy[2] = {dev(n * 4), dev(n * 4)};
	uint64_t len = n;
	void *args[2][5] = {{&dx, &len, &dy[0], &w, &h}, {&dx, &len, &dy[1], &w, &h}};
	Side s[2];
	OxDim3 g = ox_dim((w + tile - 1) / tile, (h + tile - 1) / tile, 1);
	side(&s[0], m, name, g, ox_dim(bx, by, 1), args[0]);
	side(&s[1], &ref_suite, ref, g, ox_dim(bx, by, 1), args[1]);
	run_sync(&s[0]);
	run_sync(&s[1]);
	float *y[2] = {download(dy[0], n * 4), download(dy[1], n * 4)};
	size_t bad = 0;
	if (!strcmp(name, "transpose"))
		for (size_t r = 0; r < h; r++)
			for (size_t c = 0; c < w; c++)
				bad += memcmp(&y[0][c * h + r], &x[r * w + c], 4) != 0;
	if (check(workload, bits_differ(y[0], y[1], n), n, "outputs differ from nvcc's (bits)") &&
	    check(workload, bad, n, "elements wrong against the CPU")) {
		double med[2];
		time_sides(s, 2, med);
		row(workload, name, ref, med, -1, "");
	}
	free(x);
	free(y[0]);
	free(y[1]);
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dy[0]));
	OX_CHECK(ox_free(dy[1]));
}

static void bench_scan(void)
{
	const size_t n = (size_t)1 << 26;
	float *x = malloc(n * 4);
	for (size_t i = 0; i < n; i++)
		x[i] = rnd_f32();
	OxDevPtr dx = upload(x, n * 4), ds[2] = {dev(n * 4), dev(n * 4)}, dw[2] = {dev(n / 32 * 4), dev(n / 32 * 4)};
	uint64_t len = n, wlen = n / 32;
	void *args[2][6] = {{&dx, &len, &ds[0], &len, &dw[0], &wlen}, {&dx, &len, &ds[1], &len, &dw[1], &wlen}};
	Side s[2];
	side(&s[0], &ox_wr, "warp_sum_scan", ox_dim((unsigned)(n / 256), 1, 1), ox_dim(256, 1, 1), args[0]);
	side(&s[1], &ref_suite, "warp_sum_scan_ref", ox_dim((unsigned)(n / 256), 1, 1), ox_dim(256, 1, 1), args[1]);
	run_sync(&s[0]);
	run_sync(&s[1]);
	float *y[2] = {download(ds[0], n * 4), download(ds[1], n * 4)};
	float *w[2] = {download(dw[0], n / 8), download(dw[1], n / 8)};
	size_t bad = 0;
	for (size_t i = 0; i < n; i += 32) {   /* each warp's last scan equals its sum within rounding */
		float d = y[0][i + 31] - w[0][i / 32];
		bad += !(fabsf(d) <= 1e-4f);
	}
	if (check("warp scan 2^26", bits_differ(y[0], y[1], n) + bits_differ(w[0], w[1], n / 32), n + n / 32,
	          "outputs differ from nvcc's (bits)") &&
	    check("warp scan 2^26", bad, n / 32, "warps whose scan and sum disagree")) {
		double med[2];
		time_sides(s, 2, med);
		row("warp scan 2^26", "warp_sum_scan", "warp_sum_scan_ref", med, -1, "");
	}
	free(x);
	for (int i = 0; i < 2; i++) {
		free(y[i]);
		free(w[i]);
		OX_CHECK(ox_free(ds[i]));
		OX_CHECK(ox_free(dw[i]));
	}
	OX_CHECK(ox_free(dx));
}

static void load(OxModule *m, const char *dir, const char *name, const char *ext)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
	OX_CHECK(ox_module_load(m, path));
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: %s EXAMPLES_DIR KIND REF_DIR REGS\n", argv[0]);
		return 2;
	}
	kind = argv[2];
	regs_path = argv[4];
	OX_CHECK(ox_init());
	load(&ox_bk, argv[1], "bench_kernels", kind);
	load(&ox_tr, argv[1], "transpose", kind);
	load(&ox_st, argv[1], "stencil2d", kind);
	load(&ox_wr, argv[1], "warp_reduce", kind);
	load(&ref_suite, argv[3], "suite_ref", "cubin");
	load(&ref_sgemm, argv[3], "sgemm_rb_ref", "cubin");
	OX_CHECK(ox_event_create(&e0));
	OX_CHECK(ox_event_create(&e1));
	if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "bench: cublasCreate failed\n");
		return 1;
	}
	bench_sgemm("sgemm_rb 4096^3", "sgemm_rb", "sgemm_rb_ref");
	bench_sgemm("sgemm_db 4096^3", "sgemm_db", "sgemm_db_ref");
	const size_t big = ((size_t)1 << 28) + 3;
	bench_1d("copy f32x4 2^28+3", "copy_f32x4", "copy_f32x4_ref", big, big, (int)((big / 4 + 255) / 256), 256, 0,
	         verify_copy, 1);
	bench_1d("reduce 2^28+3", "reduce_sum", "reduce_sum_ref", big, 1056, 1056, 256, 0, verify_reduce, 0);
	bench_1d("histogram 2^28+3", "histogram256", "histogram256_ref", big, 256, 1056, 256, 1, verify_histogram, 0);
	bench_1d("softmax f32 16384x4096", "softmax_rows", "softmax_rows_ref", (size_t)16384 * 4096,
	         (size_t)16384 * 4096, 16384 / 8, 0, 0, verify_softmax, 0);
	bench_2d("transpose 8192^2", &ox_tr, "transpose", "transpose_ref", 8192, 8192, 32, 32, 8);
	bench_2d("stencil2d 8192^2", &ox_st, "stencil2d", "stencil2d_ref", 8192, 8192, 16, 16, 16);
	bench_scan();
	cublasDestroy(blas);
	return failures != 0;
}
