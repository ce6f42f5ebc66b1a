/* bench/vecadd/bench.c: oxidec's vecadd against nvcc's vecadd_ref, both
 * loaded and launched through src/runtime/oxrt.c, so the launch paths are
 * identical. n = 2^28 f32, 256 threads per block. Both results are checked
 * bit-exactly first; then the kernels run alternately (the order flips on
 * every round), each launch timed with CUDA events, and the table gives the
 * median, the minimum, GB/s over 3 * 4 * n bytes, and the time ratio.
 * usage: bench OXIDEC_MODULE(.ptx|.cubin) NVCC_MODULE(.cubin|.ptx) */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N ((size_t)1 << 28)
#define BLOCK 256u
#define WARMUP 5
#define RUNS 31
#define POISON 0x7fc0deadu

typedef struct {
	const char *label, *kernel;
	OxModule mod;
	OxFunc fn;
	float ms[RUNS];
} Contender;

static uint32_t rng_state = 0x243f6a88u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* Uniform in [-1, 1). */
static float random_float(void)
{
	return (float)(int32_t)rng_next() * (1.0f / 2147483648.0f);
}

static void load(Contender *k, const char *path)
{
	OX_CHECK(ox_module_load(&k->mod, path));
	OX_CHECK(ox_function(&k->fn, &k->mod, k->kernel));
}

static void launch(const Contender *k, void **args)
{
	OX_CHECK(ox_launch(&k->fn, ox_dim(ox_blocks_for(N, BLOCK), 1, 1),
	                   ox_dim(BLOCK, 1, 1), 0, args));
}

/* Poisons c, runs k once, compares c with want bit for bit. */
static int check(const Contender *k, void **args, OxDevPtr dc,
                 const float *want, float *got)
{
	size_t bad = 0;

	OX_CHECK(ox_memset32(dc, POISON, N));
	OX_CHECK(ox_launch_sync(&k->fn, ox_dim(ox_blocks_for(N, BLOCK), 1, 1),
	                        ox_dim(BLOCK, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(got, dc, N * sizeof(float)));
	for (size_t i = 0; i < N; i++)
		bad += memcmp(&got[i], &want[i], sizeof(float)) != 0;
	if (bad == 0)
		printf("PASS %s: %zu/%zu elements bit-exact\n", k->label, N, N);
	else
		printf("FAIL %s: %zu of %zu elements differ\n", k->label, bad,
		       N);
	return bad != 0;
}

static void time_one(Contender *k, void **args, int run, OxEvent *start,
                     OxEvent *end)
{
	OX_CHECK(ox_event_record(start));
	launch(k, args);
	OX_CHECK(ox_event_record(end));
	OX_CHECK(ox_event_elapsed_ms(&k->ms[run], start, end));
}

/* Warm-up, then RUNS rounds of both kernels, alternating who goes first. */
static void time_all(Contender *ox, Contender *nv, void **args)
{
	OxEvent start, end;

	OX_CHECK(ox_event_create(&start));
	OX_CHECK(ox_event_create(&end));
	for (int i = 0; i < WARMUP; i++) {
		launch(ox, args);
		launch(nv, args);
	}
	OX_CHECK(ox_synchronize());
	for (int r = 0; r < RUNS; r++) {
		Contender *first = r % 2 ? nv : ox, *second = r % 2 ? ox : nv;

		time_one(first, args, r, &start, &end);
		time_one(second, args, r, &start, &end);
	}
	ox_event_destroy(&start);
	ox_event_destroy(&end);
}

static int cmp_float(const void *pa, const void *pb)
{
	float a = *(const float *)pa, b = *(const float *)pb;

	return (a > b) - (a < b);
}

static float median_ms(Contender *k)
{
	qsort(k->ms, RUNS, sizeof k->ms[0], cmp_float);
	return k->ms[RUNS / 2];
}

static void print_row(const Contender *k, float med)
{
	double gbs = 3.0 * sizeof(float) * (double)N / (med * 1e-3) / 1e9;

	printf("%-8s %-40s %9.4f %9.4f %9.1f\n", k->label, k->mod.path,
	       (double)med, (double)k->ms[0], gbs);
}

static void print_table(Contender *ox, Contender *nv)
{
	float ox_med = median_ms(ox), nv_med = median_ms(nv);

	printf("\nvecadd, n = 2^28 f32, %u threads/block, median of %d "
	       "launches each\n", BLOCK, RUNS);
	printf("%-8s %-40s %9s %9s %9s\n", "kernel", "module", "median ms",
	       "min ms", "GB/s");
	print_row(ox, ox_med);
	print_row(nv, nv_med);
	printf("ratio oxidec/nvcc (median time): %.3f  (1.000 = parity, "
	       "above 1 = oxidec slower)\n", (double)(ox_med / nv_med));
}

int main(int argc, char **argv)
{
	Contender ox = {.label = "oxidec", .kernel = "vecadd"};
	Contender nv = {.label = "nvcc", .kernel = "vecadd_ref"};
	float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float));
	float *want = malloc(N * sizeof(float)), *got = malloc(N * sizeof(float));
	uint64_t len = N;
	OxDevPtr da, db, dc;
	void *args[] = {&da, &len, &db, &len, &dc, &len};
	char name[256];
	int failed;

	if (argc != 3) {
		fprintf(stderr, "usage: %s OXIDEC_MODULE NVCC_MODULE\n", argv[0]);
		return 2;
	}
	if (a == NULL || b == NULL || want == NULL || got == NULL) {
		fprintf(stderr, "bench: out of host memory\n");
		return 1;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_device_name(name, sizeof name));
	printf("device: %s\n", name);
	load(&ox, argv[1]);
	load(&nv, argv[2]);
	for (size_t i = 0; i < N; i++) {
		a[i] = random_float();
		b[i] = random_float();
		want[i] = a[i] + b[i];
	}
	OX_CHECK(ox_alloc(&da, N * sizeof(float)));
	OX_CHECK(ox_alloc(&db, N * sizeof(float)));
	OX_CHECK(ox_alloc(&dc, N * sizeof(float)));
	OX_CHECK(ox_copy_to_device(da, a, N * sizeof(float)));
	OX_CHECK(ox_copy_to_device(db, b, N * sizeof(float)));
	failed = check(&ox, args, dc, want, got);
	failed += check(&nv, args, dc, want, got);
	time_all(&ox, &nv, args);
	print_table(&ox, &nv);
	return failed != 0;
}
