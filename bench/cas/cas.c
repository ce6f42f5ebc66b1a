/* bench/cas/cas.c: contended atomics on ONE global counter (issue 11):
 * every thread of the grid adds 1 to c[0] by a compare-exchange loop or
 * by one fetch_add, oxidec's examples/cas_contention kernels next to
 * nvcc's twins (bench/cas/cas_ref.cu), at growing grids of 256-thread
 * blocks (33 .. 1056: 1056 is 8 blocks on each of an H200's 132
 * multiprocessors, every thread resident at once). Every launch is
 * checked first (the counter == the grid's threads), then timed with
 * CUDA events (the minimum of up to 3 launches under 200 ms, else one).
 * A variant stops growing once a launch took over CAS_STOP_MS (2000) or
 * the next grid, at twice the threads, would take over CAS_LIMIT_MS
 * (4000) if the time grows as the square of the threads (each success
 * costs a failed attempt of every thread still trying), so the run stays
 * under a minute. With a third module, examples/histogram's own kernel
 * (its count is the same loop, adding each thread's count) at 64 .. 1056
 * blocks over 2^20 + 17 values, checking stats[2] == the values.
 * Prints one markdown table: variant, side, then per grid ms and ns per
 * successful update (ms / threads). Exit 1 on a wrong count.
 * NVCC_MODULE "-": oxidec's rows only (e.g. emulated: MODULE.so).
 * usage: cas OXIDEC_MODULE(.ptx|.cubin) NVCC_MODULE(.cubin)|- [HISTOGRAM_MODULE] */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 256u
#define NGRID 6
#define REPS 3

static const unsigned grids[NGRID] = {33, 66, 132, 264, 528, 1056};
static const unsigned hist_grids[NGRID] = {33, 64, 132, 264, 528, 1056};

typedef struct {
	const char *variant, *side, *kernel;
	int nvcc;          /* from the nvcc module */
} Row;

static const Row rows[] = {
	{"CAS loop, Relaxed", "oxidec", "cas_relaxed", 0},
	{"", "nvcc atomic_ref", "ref_cas_relaxed", 1},
	{"", "nvcc atomicCAS", "ref_cas_atomiccas", 1},
	{"CAS loop, AcqRel / Relaxed", "oxidec", "cas_acqrel", 0},
	{"", "nvcc", "ref_cas_acqrel", 1},
	{"CAS loop, SeqCst", "oxidec", "cas_seqcst", 0},
	{"", "nvcc", "ref_cas_seqcst", 1},
	{"CAS loop, AcqRel / Relaxed, system scope", "oxidec", "sys_cas_acqrel", 0},
	{"", "nvcc", "ref_sys_cas_acqrel", 1},
	{"fetch_add, Relaxed (floor)", "oxidec", "add_relaxed", 0},
	{"", "nvcc", "ref_add_relaxed", 1},
};

static double stop_ms = 2000, limit_ms = 4000;
static int bad;

static double env_ms(const char *name, double dflt)
{
	const char *s = getenv(name);
	return s && atof(s) > 0 ? atof(s) : dflt;
}

/* one checked, timed launch of f over grid blocks; *counter: where the
 * count is, want its value after the launch; ms, or -1 when wrong */
static float launch(const OxFunc *f, unsigned grid, void **args, OxDevPtr counter, uint32_t want)
{
	OxEvent start, end;
	float ms = -1;
	uint32_t got = 0;
	OX_CHECK(ox_memset32(counter, 0, 1));
	OX_CHECK(ox_synchronize());
	OX_CHECK(ox_event_create(&start));
	OX_CHECK(ox_event_create(&end));
	OX_CHECK(ox_event_record(&start));
	OX_CHECK(ox_launch(f, ox_dim(grid, 1, 1), ox_dim(BLOCK, 1, 1), 0, args));
	OX_CHECK(ox_event_record(&end));
	OX_CHECK(ox_synchronize());
	OX_CHECK(ox_event_elapsed_ms(&ms, &start, &end));
	ox_event_destroy(&start);
	ox_event_destroy(&end);
	OX_CHECK(ox_copy_from_device(&got, counter, sizeof got));
	if (got != want) {
		fprintf(stderr, "FAIL %u blocks: counter %u, want %u\n", grid, got, want);
		bad = 1;
		return -1;
	}
	return ms;
}

/* the best of up to REPS launches (one when it is slow) */
static float timed(const OxFunc *f, unsigned grid, void **args, OxDevPtr counter, uint32_t want)
{
	float best = -1;
	for (int r = 0; r < REPS; r++) {
		float ms = launch(f, grid, args, counter, want);
		if (ms < 0)
			return -1;
		best = best < 0 || ms < best ? ms : best;
		if (ms > 200)
			break;
	}
	return best;
}

/* one table row over the grids; want(grid) the count after a launch */
static void row(const char *variant, const char *side, const char *kernel, const OxFunc *f,
                const unsigned *gs, void **args, OxDevPtr counter, uint32_t fixed_want)
{
	printf("| %s | %s `%s` |", variant, side, kernel);
	float last = 0;
	int stopped = 0;
	launch(f, gs[0], args, counter, fixed_want ? fixed_want : gs[0] * BLOCK);   /* warm-up */
	for (int g = 0; g < NGRID; g++) {
		uint32_t threads = gs[g] * BLOCK, want = fixed_want ? fixed_want : threads;
		double next = g ? last * (double)gs[g] * gs[g] / ((double)gs[g - 1] * gs[g - 1]) : 0;
		if (stopped || (g && (last > stop_ms || next > limit_ms))) {
			printf(stopped ? " |" : " skipped (~%.0f ms) |", next);
			stopped = 1;
			continue;
		}
		float ms = timed(f, gs[g], args, counter, want);
		if (ms < 0) {
			printf(" WRONG |");
			stopped = 1;
			continue;
		}
		printf(" %.3f ms, %.1f ns |", ms, ms * 1e6 / threads);
		fflush(stdout);
		last = ms;
	}
	printf("\n");
}

static void header(const char *first, const unsigned *gs)
{
	printf("| %s | side, kernel |", first);
	for (int g = 0; g < NGRID; g++)
		printf(" %u blocks (%u threads) |", gs[g], gs[g] * BLOCK);
	printf("\n|---|---|");
	for (int g = 0; g < NGRID; g++)
		printf("---|");
	printf("\n");
}

static uint32_t rng_state = 0x12345679u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* examples/histogram's kernel: stats[2] counts the values by its CAS loop */
static void histogram(const char *path)
{
	const size_t n = (1u << 20) + 17;
	uint32_t *data = malloc(n * sizeof *data);
	uint64_t len = n, nbins = 256, nstats = 8;
	OxModule mod;
	OxFunc fn;
	OxDevPtr dd, db, ds;
	void *args[] = {&dd, &len, &db, &nbins, &ds, &nstats};
	if (!data)
		exit(1);
	for (size_t i = 0; i < n; i++)
		data[i] = rng_next();
	OX_CHECK(ox_module_load(&mod, path));
	OX_CHECK(ox_function(&fn, &mod, "histogram"));
	OX_CHECK(ox_alloc(&dd, n * sizeof *data));
	OX_CHECK(ox_alloc(&db, 256 * 4));
	OX_CHECK(ox_alloc(&ds, 8 * 4));
	OX_CHECK(ox_copy_to_device(dd, data, n * sizeof *data));
	OX_CHECK(ox_memset32(db, 0, 256));
	OX_CHECK(ox_memset32(ds, 0, 8));
	printf("\nexamples/histogram over %zu values (stats[2] by the CAS loop; ns per thread)\n\n", n);
	header("kernel", hist_grids);
	row("histogram", "oxidec", "histogram", &fn, hist_grids, args, ds + 8, (uint32_t)n);
	ox_free(dd);
	ox_free(db);
	ox_free(ds);
	ox_module_unload(&mod);
	free(data);
}

int main(int argc, char **argv)
{
	OxModule mods[2];
	OxDevPtr dc;
	uint64_t one = 1;
	void *args[] = {&dc, &one};
	char name[256];
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: %s OXIDEC_MODULE NVCC_MODULE [HISTOGRAM_MODULE]\n", argv[0]);
		return 2;
	}
	stop_ms = env_ms("CAS_STOP_MS", stop_ms);
	limit_ms = env_ms("CAS_LIMIT_MS", limit_ms);
	OX_CHECK(ox_init());
	OX_CHECK(ox_device_name(name, sizeof name));
	OX_CHECK(ox_module_load(&mods[0], argv[1]));
	int nvcc = strcmp(argv[2], "-") != 0;
	if (nvcc)
		OX_CHECK(ox_module_load(&mods[1], argv[2]));
	OX_CHECK(ox_alloc(&dc, 4));
	printf("%s; %u threads per block; every thread adds 1 to one u32; ms, ns per successful update\n\n",
	       name, BLOCK);
	header("variant", grids);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		OxFunc f;
		if (rows[i].nvcc && !nvcc)
			continue;
		OX_CHECK(ox_function(&f, &mods[rows[i].nvcc], rows[i].kernel));
		row(rows[i].variant, rows[i].side, rows[i].kernel, &f, grids, args, dc, 0);
	}
	if (argc == 4)
		histogram(argv[3]);
	ox_free(dc);
	printf("\n%s\n", bad ? "cas: FAIL (a wrong count)" : "cas: every count right");
	return bad;
}
