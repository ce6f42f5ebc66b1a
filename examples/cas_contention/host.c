/* examples/cas_contention/host.c: every launched kernel of
 * cas_contention (cas_relaxed, cas_acqrel, cas_seqcst, sys_cas_acqrel,
 * add_relaxed: every thread adds 1 to c[0], by a compare-exchange loop or
 * a fetch_add) at 8 blocks of 256 and at 1 block of 33 threads (a partial
 * warp), and one f_* kernel of each scope, ordering and form: the counter
 * must be exactly the number of threads. bench/cas/cas.c times them on a
 * GPU. PTX parameters: c_ptr, c_len (64-bit).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <string.h>

static const char *launched[] = {"cas_relaxed", "cas_acqrel", "cas_seqcst", "sys_cas_acqrel", "add_relaxed"};
static const char *scopes[] = {"dev", "gpu", "cta", "sys"};
static const char *orders[] = {"relaxed", "acquire", "release", "acqrel", "seqcst"};

static int bad, runs;

/* one launch of kernel over grid x block threads; the count checked */
static void check(OxModule *mod, const char *kernel, unsigned grid, unsigned block, OxDevPtr dc)
{
	OxFunc fn;
	uint64_t len = 1;
	uint32_t got = 0;
	void *args[] = {&dc, &len};
	OX_CHECK(ox_function(&fn, mod, kernel));
	OX_CHECK(ox_memset32(dc, 0, 1));
	OX_CHECK(ox_launch_sync(&fn, ox_dim(grid, 1, 1), ox_dim(block, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(&got, dc, sizeof got));
	runs++;
	if (got != grid * block) {
		printf("FAIL %s <<<%u, %u>>>: counter %u, want %u\n", kernel, grid, block, got, grid * block);
		bad = 1;
	}
}

int main(int argc, char **argv)
{
	OxModule mod;
	OxDevPtr dc;
	char name[64];
	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_alloc(&dc, 4));
	for (size_t i = 0; i < sizeof launched / sizeof launched[0]; i++) {
		check(&mod, launched[i], 8, 256, dc);
		check(&mod, launched[i], 1, 33, dc);
	}
	/* block scope: one block, whose threads alone share the counter */
	for (int s = 0; s < 4; s++)
		for (int o = 0; o < 5; o++)
			for (int f = 0; f < 2; f++) {
				snprintf(name, sizeof name, "f_%s_%s_%s", scopes[s], orders[o], f ? "add" : "cas");
				check(&mod, name, strcmp(scopes[s], "cta") ? 4 : 1, 256, dc);
			}
	ox_free(dc);
	printf("cas_contention: %d launches, %s\n", runs, bad ? "a count wrong" : "every count right");
	return bad;
}
