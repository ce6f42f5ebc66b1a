/* tests/emu/test_emu.c: the emulator through the oxrt API, on the
 * hand-written kernels of tests/emu/kernels.c: barriers (a reversal, a
 * tree reduction with a barrier per level, threads that return before
 * one, full 1024-thread blocks), thread and block indices in 3-D grids, a
 * trap while other threads wait at a barrier (its message, and that the
 * process goes on), named barriers counted by warps (a partial warp,
 * returned lanes, a barrier that cannot complete, a bad id), a failed
 * device assert, launch limits and error names, and a recursion deeper
 * than the fibers' default stack after ox_set_stack_size.
 * Prints PASS/FAIL lines and "N passed, M failed"; exits 1 on failure.
 * usage: test_emu build/emu/test_kernels.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int npass, nfail;
static OxModule mod;

static void check(int ok, const char *what)
{
	if (ok) {
		npass++;
		printf("PASS %s\n", what);
	} else {
		nfail++;
		printf("FAIL %s\n", what);
	}
}

static OxFunc kernel(const char *name)
{
	OxFunc f;

	OX_CHECK(ox_function(&f, &mod, name));
	return f;
}

/* Two device buffers of n words, the first poisoned; the kernel's result
 * is copied into got. */
static int run2(const char *name, OxDim3 grid, OxDim3 block, unsigned *got,
                size_t n)
{
	OxFunc f = kernel(name);
	OxDevPtr tmp, out;
	void *args[] = {&tmp, &out};
	int rc;

	OX_CHECK(ox_alloc(&tmp, n * 4));
	OX_CHECK(ox_alloc(&out, n * 4));
	OX_CHECK(ox_memset32(tmp, 0xdeadbeefu, n));
	OX_CHECK(ox_memset32(out, 0, n));
	rc = ox_launch_sync(&f, grid, block, 0, args);
	if (rc == 0)
		OX_CHECK(ox_copy_from_device(got, out, n * 4));
	OX_CHECK(ox_free(tmp));
	OX_CHECK(ox_free(out));
	return rc;
}

static void test_reverse(OxDim3 grid, OxDim3 block, const char *what)
{
	size_t nb = (size_t)block.x * block.y * block.z;
	size_t n = nb * grid.x * grid.y * grid.z;
	unsigned *got = malloc(n * 4);
	int ok = got != NULL && run2("reverse", grid, block, got, n) == 0;

	for (size_t i = 0; ok && i < n; i++) {
		size_t base = i / nb * nb, t = i % nb;

		ok = got[i] == base + (nb - 1 - t) * 7 + 1;
	}
	check(ok, what);
	free(got);
}

static void test_reduce(void)
{
	unsigned got[6 * 256];
	int ok = run2("reduce", ox_dim(3, 2, 1), ox_dim(8, 8, 4), got,
	              6 * 256) == 0;

	for (int b = 0; ok && b < 6; b++)
		ok = got[b] == 256 * 257 / 2;
	check(ok, "barrier: tree reduction, 8 levels, 6 blocks of 8x8x4");
}

static void test_early_exit(void)
{
	unsigned got[4 * 64];
	int ok = run2("early_exit", ox_dim(4, 1, 1), ox_dim(64, 1, 1), got,
	              4 * 64) == 0;

	for (unsigned i = 0; ok && i < 4 * 64; i++) {
		unsigned t = i % 64;

		ok = got[i] == (t % 2 ? 0 : (t + 2) % 64 * 3 + 1);
	}
	check(ok, "barrier: threads that returned do not hold it up");
}

static void test_indices(void)
{
	OxDim3 grid = ox_dim(3, 2, 2), block = ox_dim(4, 3, 2);
	size_t n = 12 * 24;
	unsigned *got = malloc(n * 8 * 4);
	OxFunc f = kernel("indices");
	OxDevPtr out;
	void *args[] = {&out};
	int ok = got != NULL;

	OX_CHECK(ox_alloc(&out, n * 8 * 4));
	OX_CHECK(ox_launch_sync(&f, grid, block, 0, args));
	OX_CHECK(ox_copy_from_device(got, out, n * 8 * 4));
	for (size_t i = 0; ok && i < n; i++) {
		unsigned *o = got + 8 * i, b = (unsigned)(i / 24);
		unsigned t = (unsigned)(i % 24);

		ok = o[0] == t % 4 && o[1] == t / 4 % 3 && o[2] == t / 12 &&
		     o[3] == b % 3 && o[4] == b / 3 % 2 && o[5] == b / 6 &&
		     o[6] == 24 && o[7] == 12;
	}
	check(ok, "indices: tid, ctaid, ntid, nctaid in a 3x2x2 grid of "
	      "4x3x2 blocks");
	OX_CHECK(ox_free(out));
	free(got);
}

static void test_trap(void)
{
	OxFunc f = kernel("trap_at");
	unsigned b = 2, t = 5;
	OxDevPtr out;
	void *args[] = {&b, &t, &out};
	int rc, ok;

	OX_CHECK(ox_alloc(&out, 4 * 32 * 4));
	rc = ox_launch(&f, ox_dim(4, 1, 1), ox_dim(32, 1, 1), 0, args);
	check(rc == 0, "trap: ox_launch itself succeeds (asynchronous, as "
	      "on a GPU)");
	rc = ox_synchronize();
	check(rc != 0 && ox_error_is_trap() &&
	      strcmp(ox_error_name(), "CUDA_ERROR_LAUNCH_FAILED") == 0,
	      "trap: ox_synchronize reports CUDA_ERROR_LAUNCH_FAILED");
	ok = strstr(ox_error(), "CUDA_ERROR_LAUNCH_FAILED (emulated: kernel "
	            "trapped in block (2,0,0) thread (5,0,0))") != NULL;
	check(ok, "trap: the message names the block and the thread");
	if (!ok)
		printf("    %s\n", ox_error());
	check(ox_synchronize() == 0, "trap: reported once");
	rc = ox_launch_sync(&f, ox_dim(4, 1, 1), ox_dim(32, 1, 1), 0, args);
	check(rc != 0 && ox_error_is_trap(),
	      "trap: ox_launch_sync reports it too");
	b = 99;
	check(ox_launch_sync(&f, ox_dim(4, 1, 1), ox_dim(32, 1, 1), 0,
	                     args) == 0,
	      "trap: the process goes on after one");
	OX_CHECK(ox_free(out));
}

static void test_errors(void)
{
	OxFunc f = kernel("reverse"), g;
	OxDevPtr p = 0;
	void *args[] = {&p, &p};

	check(ox_launch(&f, ox_dim(1, 1, 1), ox_dim(2048, 1, 1), 0, args) != 0 &&
	      strcmp(ox_error_name(), "CUDA_ERROR_INVALID_VALUE") == 0,
	      "limits: a block of 2048 threads is CUDA_ERROR_INVALID_VALUE");
	check(ox_launch(&f, ox_dim(1, 70000, 1), ox_dim(1, 1, 1), 0, args) != 0,
	      "limits: grid y of 70000 is refused");
	check(ox_function(&g, &mod, "nope") != 0 &&
	      strcmp(ox_error_name(), "CUDA_ERROR_NOT_FOUND") == 0 &&
	      strstr(ox_error(), "kernels in this module: reverse reduce "
	             "early_exit trap_at indices") != NULL,
	      "ox_function: an unknown name lists the module's kernels");
	check(ox_alloc(&p, 0) != 0, "ox_alloc: 0 bytes is an error, as on "
	      "a GPU");
	OX_CHECK(ox_alloc(&p, 100));
	check(p % 256 == 0, "ox_alloc: 256-byte aligned");
	OX_CHECK(ox_free(p));
	check(ox_free(p) != 0 && strcmp(ox_error_name(),
	                                "CUDA_ERROR_INVALID_VALUE") == 0,
	      "ox_free: a pointer freed already is an error");
}

static void test_warp_ops(void)
{
	enum { NB = 3, NT = 40 };
	unsigned got[NB * NT * 3];
	OxFunc f = kernel("warp_ops");
	OxDevPtr out;
	void *args[] = {&out};
	int ok = 1;

	OX_CHECK(ox_alloc(&out, sizeof got));
	OX_CHECK(ox_memset32(out, 0, NB * NT * 3));
	OX_CHECK(ox_launch_sync(&f, ox_dim(NB, 1, 1), ox_dim(NT, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(got, out, sizeof got));
	for (unsigned i = 0; ok && i < NB * NT; i++) {
		unsigned t = i % NT, w = t / 32, size = NT - w * 32 < 32 ? NT - w * 32 : 32;
		unsigned ballot = 0, count = 0, *o = got + 3 * i;

		for (unsigned l = 0; l < size; l++) {
			count += l % 4 != 3;
			ballot |= (unsigned)(l % 4 == 1) << l;
		}
		if (t % 4 == 3)
			ok = o[0] == 0 && o[1] == 0 && o[2] == 0;
		else
			ok = o[0] == w * 32 * 10 && o[1] == ballot && o[2] == count;
		if (!ok)
			printf("    thread %u: %u %#x %u, want %u %#x %u\n", i, o[0], o[1], o[2],
			       w * 320, ballot, count);
	}
	check(ok, "warp ops: shfl/ballot/redux with a member mask, returned "
	      "lanes, a partial warp (blocks of 40)");
	OX_CHECK(ox_free(out));
}

static void test_named(void)
{
	enum { NB = 3, NT = 112 };
	unsigned got[NB * NT];
	int ok = run2("named_partial", ox_dim(NB, 1, 1), ox_dim(NT, 1, 1), got,
	              NB * NT) == 0;

	for (unsigned i = 0; ok && i < NB * NT; i++) {
		unsigned t = i % NT, src = (t + 40) % NT;
		unsigned want = src == 63 || src == 95 ? 0xdeadbeefu : 5 * src + 1;

		if (t == 63 || t == 95)
			want = 0;
		ok = got[i] == want;
		if (!ok)
			printf("    thread %u: %#x, want %#x\n", i, got[i], want);
	}
	check(ok, "named barrier: 128 threads = 4 warps with a partial one "
	      "and returned lanes (blocks of 112)");
	ok = run2("named_hang", ox_dim(2, 1, 1), ox_dim(128, 1, 1), got, 256) != 0 &&
	     strcmp(ox_error_name(), "CUDA_ERROR_LAUNCH_FAILED") == 0 &&
	     strstr(ox_error(), "would hang on a GPU: 64 threads wait forever "
	            "at named barrier 2") != NULL;
	check(ok, "named barrier: one that cannot complete fails the launch");
	if (!ok)
		printf("    %s\n", ox_error());
	ok = run2("named_bad", ox_dim(1, 1, 1), ox_dim(64, 1, 1), got, 64) != 0 &&
	     strstr(ox_error(), "barrier_arrive(16, 64) is undefined") != NULL;
	check(ok, "named barrier: id 16 fails the launch");
	if (!ok)
		printf("    %s\n", ox_error());
}

static void test_assert(void)
{
	unsigned got[4 * 32];
	int ok;

	printf("(a failed assertion message on stderr is expected:)\n");
	fflush(stdout);
	ok = run2("assert_at", ox_dim(4, 1, 1), ox_dim(32, 1, 1), got, 4 * 32) != 0 &&
	     ox_error_is_trap() && ox_error_code() == 710 &&
	     strcmp(ox_error_name(), "CUDA_ERROR_ASSERT") == 0 &&
	     strstr(ox_error(), "device-side assert failed in block (1,0,0) "
	            "thread (3,0,0)") != NULL;
	check(ok, "assert: CUDA_ERROR_ASSERT, naming the block and thread");
	if (!ok)
		printf("    %s\n", ox_error());
	check(ox_synchronize() == 0, "assert: reported once");
}

static void test_events(void)
{
	OxEvent a, b;
	float ms = -1;

	OX_CHECK(ox_event_create(&a));
	OX_CHECK(ox_event_create(&b));
	OX_CHECK(ox_event_record(&a));
	test_reverse(ox_dim(64, 1, 1), ox_dim(256, 1, 1),
	             "barrier: reversal, 64 blocks of 256 (timed)");
	OX_CHECK(ox_event_record(&b));
	OX_CHECK(ox_event_elapsed_ms(&ms, &a, &b));
	check(ms >= 0, "events: elapsed host time");
	ox_event_destroy(&a);
	ox_event_destroy(&b);
}

static unsigned deep_ref(unsigned depth, unsigned seed)
{
	unsigned sum = depth ? deep_ref(depth - 1, seed * 3 + 1) : 0;

	for (unsigned i = 0; i < 4096; i += 512)
		sum += (unsigned char)(seed + i);
	return sum;
}

/* ox_set_stack_size is kept and reported back, and fibers get that much
 * stack: 128 frames of 4 KiB need 512 KiB, twice the default. */
static void test_stack(void)
{
	OxFunc f = kernel("deep_stack");
	unsigned depth = 128, got[2];
	OxDevPtr out;
	void *args[] = {&depth, &out};
	size_t bytes = 0;

	check(ox_stack_size(&bytes) == 0 && bytes == 1024,
	      "stack: 1024 bytes per thread until raised, like CUDA");
	OX_CHECK(ox_set_stack_size(1u << 20));
	check(ox_stack_size(&bytes) == 0 && bytes == 1u << 20,
	      "stack: ox_set_stack_size(1 MiB) reported back");
	OX_CHECK(ox_alloc(&out, sizeof got));
	OX_CHECK(ox_launch_sync(&f, ox_dim(1, 1, 1), ox_dim(2, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(got, out, sizeof got));
	check(got[0] == deep_ref(depth, 0) && got[1] == deep_ref(depth, 1),
	      "stack: 128 frames of 4 KiB run on 1 MiB fibers");
	OX_CHECK(ox_free(out));
	OX_CHECK(ox_set_stack_size(1024));
}

int main(int argc, char **argv)
{
	char name[64];

	if (argc != 2) {
		fprintf(stderr, "usage: %s test_kernels.so\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_device_name(name, sizeof name));
	check(strstr(name, "emulation") != NULL, "device name says emulation");
	test_reverse(ox_dim(5, 1, 1), ox_dim(33, 1, 1),
	             "barrier: reversal, 5 blocks of 33 threads");
	test_reverse(ox_dim(2, 2, 1), ox_dim(8, 4, 2),
	             "barrier: reversal, 2x2 blocks of 8x4x2 threads");
	test_reverse(ox_dim(2, 1, 1), ox_dim(1024, 1, 1),
	             "barrier: reversal, blocks of 1024 threads (1024 "
	             "fibers)");
	test_reduce();
	test_early_exit();
	test_indices();
	test_trap();
	test_errors();
	test_warp_ops();
	test_named();
	test_assert();
	test_events();
	test_stack();
	ox_module_unload(&mod);
	ox_shutdown();
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail != 0;
}
