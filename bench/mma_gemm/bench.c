/* bench/mma_gemm/bench.c: the tensor-core GEMM C = A * B^T (bf16 in, f32
 * accumulate; A m x k, B n x k, C m x n, all row-major) three ways in one
 * process on the primary context: an oxidec kernel (examples/mma_gemm's
 * mma_gemm or mma_gemm_pipelined, examples/hopper_gemm's hopper_gemm) and
 * nvcc's KERNEL_ref (the same algorithm, mma_gemm_ref.cu or
 * hopper_gemm_ref.cu, loaded and launched through src/runtime/oxrt.c
 * alike), and cuBLAS (cublasGemmEx, CUBLAS_COMPUTE_32F, the same layouts). Checks first: oxidec's C equals nvcc's bit for bit
 * (the same mma.sync sequence), and both are within 2 k FLT_EPSILON
 * sum|a b| of cuBLAS's on a sample of elements; then the three run in
 * turn (the order rotates every round), each launch timed with CUDA
 * events, median of 21. Prints per size the median ms and TFLOP/s of each
 * and the ratios. Sizes: 4096^3 and 8192^3. KERNEL names oxidec's kernel,
 * KERNEL_ref nvcc's (mma_gemm, mma_gemm_pipelined, hopper_gemm,
 * hopper_gemm_persistent: one block per multiprocessor, in its clusters
 * of two; B's map box 64 x 128).
 * usage: bench OXIDEC_MODULE NVCC_MODULE KERNEL */
#include "../../src/runtime/oxrt.h"

#include <cublas_v2.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUNS 21
#define WARMUP 3

typedef struct {
	const char *label;
	OxModule mod;
	OxFunc fn;
	float ms[RUNS];
} Contender;

static uint32_t rng_state = 0x9e3779b9u;

static uint16_t rnd_bf16(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	float f = (float)(rng_state % 20001) / 10000.0f - 1.0f;
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return (uint16_t)(u >> 16);
}

static double bf16_value(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static cublasHandle_t blas;
static OxDevPtr da, db, dc;
static OxTensorMap ma, mb;      /* passed by value: grid constants */
static uint32_t M, N, K;

/* how each kernel is launched: threads per block, dynamic shared memory,
 * the tile's columns, whether it takes TMA tensor maps of A and B (box 64
 * x 128 for A, 64 x box_b for B, 128-byte swizzle) instead of the
 * matrices, and whether it is persistent (a block per multiprocessor) */
static const struct {
	const char *name;
	unsigned threads, shared, tile_n, box_b;
	int maps, persistent;
} shapes[] = {
	{"mma_gemm", 256, 0, 128, 0, 0, 0},
	{"mma_gemm_pipelined", 256, 0, 128, 0, 0, 0},
	{"hopper_gemm", 384, 4 * 49152 + 1024 + 64, 256, 256, 1, 0},
	{"hopper_gemm_persistent", 384, 4 * 49152 + 1024 + 64, 256, 128, 1, 1},
};
static unsigned threads, shared, tile_n, box_b, persistent_grid;
static int use_maps;

static void run(Contender *k)
{
	if (k->fn.handle == NULL) {
		float alpha = 1, beta = 0;
		/* row-major C = A B^T is column-major C^T = B^T' A: (n x m) = op_T(B: k x n) * (A: k x m) */
		if (cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, (int)N, (int)M, (int)K, &alpha,
		                 (const void *)(uintptr_t)db, CUDA_R_16BF, (int)K, (const void *)(uintptr_t)da,
		                 CUDA_R_16BF, (int)K, &beta, (void *)(uintptr_t)dc, CUDA_R_32F, (int)N,
		                 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
			fprintf(stderr, "bench: cublasGemmEx failed\n");
			exit(1);
		}
		return;
	}
	void *args[] = {use_maps ? (void *)&ma : (void *)&da, use_maps ? (void *)&mb : (void *)&db, &dc, &M, &N, &K};
	if (persistent_grid != 0)
		OX_CHECK(ox_launch(&k->fn, ox_dim(persistent_grid, 1, 1), ox_dim(threads, 1, 1), shared, args));
	else
		OX_CHECK(ox_launch(&k->fn, ox_dim(N / tile_n, M / 128, 1), ox_dim(threads, 1, 1), shared, args));
}

static float *result(Contender *k)
{
	float *c = malloc((size_t)M * N * 4);
	OX_CHECK(ox_memset32(dc, 0x7fc0deadu, (size_t)M * N));
	run(k);
	OX_CHECK(ox_synchronize());
	OX_CHECK(ox_copy_from_device(c, dc, (size_t)M * N * 4));
	return c;
}

static int cmp_float(const void *pa, const void *pb)
{
	float a = *(const float *)pa, b = *(const float *)pb;
	return (a > b) - (a < b);
}

/* rows x k bf16 at dev as a TMA tensor map, box 64 x box_rows */
static OxTensorMap tensor_map(const OxFunc *fn, OxDevPtr dev, uint32_t rows, uint32_t k, uint32_t box_rows)
{
	OxTensorMapDesc d = {.global = dev, .rank = 2, .elem_bytes = 2, .dims = {k, rows},
	                     .strides = {(uint64_t)k * 2}, .box = {64, box_rows}, .swizzle = 128};
	OxTensorMap map;
	OX_CHECK(ox_tensor_map_encode(&map, fn, &d));
	return map;
}

static int bench(Contender *ks, int nk, uint32_t m, uint32_t n, uint32_t k)
{
	size_t na = (size_t)m * k, nb = (size_t)n * k;
	uint16_t *a = malloc(na * 2), *b = malloc(nb * 2);
	int failed = 0;
	M = m, N = n, K = k;
	for (size_t i = 0; i < na; i++)
		a[i] = rnd_bf16();
	for (size_t i = 0; i < nb; i++)
		b[i] = rnd_bf16();
	OX_CHECK(ox_alloc(&da, na * 2));
	OX_CHECK(ox_alloc(&db, nb * 2));
	OX_CHECK(ox_alloc(&dc, (size_t)m * n * 4));
	OX_CHECK(ox_copy_to_device(da, a, na * 2));
	OX_CHECK(ox_copy_to_device(db, b, nb * 2));
	if (use_maps) {
		ma = tensor_map(&ks[0].fn, da, m, k, 128);
		mb = tensor_map(&ks[0].fn, db, n, k, box_b);
	}

	float *c_ox = result(&ks[0]), *c_nv = result(&ks[1]), *c_bl = result(&ks[2]);
	size_t diff = 0, bad = 0;
	for (size_t i = 0; i < (size_t)m * n; i++)
		diff += memcmp(&c_ox[i], &c_nv[i], 4) != 0;
	for (size_t s = 0; s < 4096; s++) {       /* a sample against a double reference */
		size_t i = (s * 2654435761u) % m, j = (s * 40503u + 7) % n;
		double ref = 0, mag = 0;
		for (uint32_t p = 0; p < k; p++) {
			double t = bf16_value(a[i * k + p]) * bf16_value(b[j * k + p]);
			ref += t;
			mag += fabs(t);
		}
		double tol = 2.0 * k * FLT_EPSILON * mag + 1e-30;
		for (int w = 0; w < 3; w++) {
			float *c = w == 0 ? c_ox : w == 1 ? c_nv : c_bl;
			if (!(fabs((double)c[i * n + j] - ref) <= tol) && bad++ < 5)
				printf("  %s c[%zu][%zu] = %.9g, want %.9g\n", ks[w].label, i, j, (double)c[i * n + j], ref);
		}
	}
	printf("check %ux%ux%u: oxidec vs nvcc %zu of %zu elements differ (bit for bit); "
	       "%zu of 3 x 4096 sampled elements out of tolerance\n", m, n, k, diff, (size_t)m * n, bad);
	failed = diff != 0 || bad != 0;

	OxEvent e0, e1;
	OX_CHECK(ox_event_create(&e0));
	OX_CHECK(ox_event_create(&e1));
	for (int w = 0; w < WARMUP; w++)
		for (int i = 0; i < nk; i++)
			run(&ks[i]);
	for (int r = 0; r < RUNS; r++)
		for (int i = 0; i < nk; i++) {
			Contender *kc = &ks[(i + r) % nk];
			OX_CHECK(ox_event_record(&e0));
			run(kc);
			OX_CHECK(ox_event_record(&e1));
			OX_CHECK(ox_event_elapsed_ms(&kc->ms[r], &e0, &e1));
		}
	ox_event_destroy(&e0);
	ox_event_destroy(&e1);
	double flop = 2.0 * m * n * k, med[3];
	printf("%-8s %10s %10s %9s\n", "kernel", "median ms", "min ms", "TFLOP/s");
	for (int i = 0; i < nk; i++) {
		qsort(ks[i].ms, RUNS, sizeof(float), cmp_float);
		med[i] = ks[i].ms[RUNS / 2];
		printf("%-8s %10.4f %10.4f %9.1f\n", ks[i].label, med[i], (double)ks[i].ms[0], flop / (med[i] * 1e-3) / 1e12);
	}
	printf("ratio oxidec/nvcc (median time): %.3f; oxidec at %.1f %% of cuBLAS, nvcc at %.1f %%\n",
	       med[0] / med[1], 100 * med[2] / med[0], 100 * med[2] / med[1]);
	OX_CHECK(ox_free(da));
	OX_CHECK(ox_free(db));
	OX_CHECK(ox_free(dc));
	free(a);
	free(b);
	free(c_ox);
	free(c_nv);
	free(c_bl);
	return failed;
}

int main(int argc, char **argv)
{
	Contender ks[3] = {{.label = "oxidec"}, {.label = "nvcc"}, {.label = "cuBLAS"}};
	char name[256];
	int failed = 0;

	char ref[128];

	if (argc != 4) {
		fprintf(stderr, "usage: %s OXIDEC_MODULE NVCC_MODULE KERNEL\n", argv[0]);
		return 2;
	}
	snprintf(ref, sizeof ref, "%s_ref", argv[3]);
	OX_CHECK(ox_init());
	OX_CHECK(ox_device_name(name, sizeof name));
	printf("device: %s; %s: oxidec %s, nvcc %s\n", name, argv[3], argv[1], argv[2]);
	OX_CHECK(ox_module_load(&ks[0].mod, argv[1]));
	OX_CHECK(ox_function(&ks[0].fn, &ks[0].mod, argv[3]));
	OX_CHECK(ox_module_load(&ks[1].mod, argv[2]));
	OX_CHECK(ox_function(&ks[1].fn, &ks[1].mod, ref));
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		if (!strcmp(shapes[i].name, argv[3])) {
			threads = shapes[i].threads;
			shared = shapes[i].shared;
			tile_n = shapes[i].tile_n;
			box_b = shapes[i].box_b;
			use_maps = shapes[i].maps;
			if (shapes[i].persistent) {
				int sms;
				OX_CHECK(ox_device_attribute(&sms, OX_DEV_MULTIPROCESSOR_COUNT));
				persistent_grid = getenv("BENCH_GRID") != NULL ? (unsigned)atoi(getenv("BENCH_GRID"))
				                                               : (unsigned)sms / 2 * 2;
				printf("%s: %u blocks (%d multiprocessors)\n", argv[3], persistent_grid, sms);
			}
		}
	if (threads == 0) {
		fprintf(stderr, "bench: unknown kernel %s\n", argv[3]);
		return 2;
	}
	if (shared > 48 * 1024) {
		OX_CHECK(ox_func_set_max_dynamic_shared(&ks[0].fn, shared));
		OX_CHECK(ox_func_set_max_dynamic_shared(&ks[1].fn, shared));
	}
	memset(&ks[2].fn, 0, sizeof ks[2].fn);
	if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "bench: cublasCreate failed\n");
		return 1;
	}
	failed += bench(ks, 3, 4096, 4096, 4096);
	failed += bench(ks, 3, 8192, 8192, 8192);
	cublasDestroy(blas);
	return failed != 0;
}
