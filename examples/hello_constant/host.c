/* examples/hello_constant/host.c: runs hello_constant(out: &mut u32), one
 * thread that stores 42, and checks the value.
 * usage: host MODULE.ptx|MODULE.cubin */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	OxModule mod;
	OxFunc fn;
	OxDevPtr out;
	uint32_t value = 0;
	void *args[] = {&out};

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE.ptx|MODULE.cubin\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&fn, &mod, "hello_constant"));
	OX_CHECK(ox_alloc(&out, sizeof value));
	OX_CHECK(ox_memset32(out, 0xdeadbeefu, 1));
	OX_CHECK(ox_launch_sync(&fn, ox_dim(1, 1, 1), ox_dim(1, 1, 1), 0,
	                        args));
	OX_CHECK(ox_copy_from_device(&value, out, sizeof value));
	printf("hello_constant: %u\n", value);
	OX_CHECK(ox_free(out));
	ox_module_unload(&mod);
	ox_shutdown();
	if (value != 42) {
		printf("FAIL hello_constant: got %u (0x%08x), want 42\n", value,
		       value);
		return 1;
	}
	printf("PASS hello_constant: 1/1 values correct\n");
	return 0;
}
