/* tests/gpu/lineinfo/host.c: launches oob_store(out: *mut u32, skew: u32)
 * over N threads with out of N elements and skew 16, so the last 16
 * threads write past the end of out (a raw pointer: no bounds check).
 * Run under compute-sanitizer memcheck by run.sh, which checks that the
 * report names the Rust line of the store.  Without the sanitizer the
 * stray writes may land in the allocation's padding and go unnoticed:
 * that is why the test needs it.
 * usage: host MODULE.ptx|MODULE.cubin */
#include "../../../src/runtime/oxrt.h"

#include <stdio.h>

#define N 1024u
#define BLOCK 256u

int main(int argc, char **argv)
{
	OxModule mod;
	OxFunc fn;
	OxDevPtr out;
	uint32_t skew = 16;
	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE.ptx|MODULE.cubin\n", argv[0]);
		return 2;
	}
	if (ox_init() || ox_module_load(&mod, argv[1]) || ox_function(&fn, &mod, "oob_store") ||
	    ox_alloc(&out, N * sizeof(uint32_t))) {
		fprintf(stderr, "FAIL setup: %s\n", ox_error());
		return 1;
	}
	void *args[] = { &out, &skew };
	int r = ox_launch_sync(&fn, ox_dim(N / BLOCK, 1, 1), ox_dim(BLOCK, 1, 1), 0, args);
	printf("oob_store: %u threads, %u of them past the end: launch %s\n", N, skew,
	       r ? ox_error_name() : "returned success");
	return 0;
}
