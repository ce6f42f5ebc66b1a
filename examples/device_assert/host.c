/* examples/device_assert/host.c: runs checked_scale(limit: u32,
 * x: &[u32], y: DisjointSlice<u32>), whose device_assert! on line 14 of
 * src/lib.rs requires x[i] < limit:
 *   1. every x[i] below the limit: y[i] = 3 x[i] + i, every element
 *      checked, and nothing printed;
 *   2. x[BAD] at the limit: the launch must fail with CUDA_ERROR_ASSERT,
 *      and the output (stdout and stderr, captured around the launch)
 *      must hold CUDA's assert message naming src/lib.rs:14, the module,
 *      the block and thread of BAD, and the condition with its message.
 *      Emulated the message is required; on a GPU the driver prints it,
 *      and a message that is there must match (if the driver printed
 *      nothing before the error came back, only the error code is
 *      checked, and the program says so).
 * Test 2 runs last: after a device assert the CUDA context is unusable.
 * PTX parameters: limit (u32), x (pointer, length), y (pointer, length).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#define _POSIX_C_SOURCE 200809L     /* dup, dup2, fileno */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK 256u
#define N 10000u                /* not a multiple of BLOCK */
#define LIMIT 1000u
#define BAD 7777u               /* block 30, thread 97 */
#define CUDA_ERROR_ASSERT 710

static uint32_t x[N], y[N];

static int launch(const OxFunc *fn, OxDevPtr dx, OxDevPtr dy)
{
	uint32_t limit = LIMIT;
	uint64_t n = N;
	void *args[] = {&limit, &dx, &n, &dy, &n};

	return ox_launch_sync(fn, ox_dim(ox_blocks_for(N, BLOCK), 1, 1),
	                      ox_dim(BLOCK, 1, 1), 0, args);
}

static int check_pass(const OxFunc *fn, OxDevPtr dx, OxDevPtr dy)
{
	size_t bad = 0;

	OX_CHECK(ox_copy_to_device(dx, x, sizeof x));
	OX_CHECK(ox_memset32(dy, 0xdeadbeefu, N));
	OX_CHECK(launch(fn, dx, dy));
	OX_CHECK(ox_copy_from_device(y, dy, sizeof y));
	for (uint32_t i = 0; i < N; i++)
		if (y[i] != 3 * x[i] + i && bad++ < 5)
			printf("  y[%u] = %u, want %u\n", i, y[i], 3 * x[i] + i);
	if (bad == 0)
		printf("PASS device_assert: assertions hold, %u results exact\n", N);
	else
		printf("FAIL device_assert: %zu of %u results differ\n", bad, N);
	return bad != 0;
}

/* Runs the failing launch with stdout and stderr going to a temporary
 * file; returns the launch's result and the output in out. */
static int launch_captured(const OxFunc *fn, OxDevPtr dx, OxDevPtr dy,
                           char *out, size_t cap)
{
	FILE *tmp = tmpfile();
	int saved_out, saved_err, rc;
	size_t len;

	if (tmp == NULL) {
		perror("device_assert: tmpfile");
		exit(1);
	}
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(1);
	saved_err = dup(2);
	if (saved_out < 0 || saved_err < 0 || dup2(fileno(tmp), 1) < 0 ||
	    dup2(fileno(tmp), 2) < 0) {
		perror("device_assert: dup");
		exit(1);
	}
	rc = launch(fn, dx, dy);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	rewind(tmp);
	len = fread(out, 1, cap - 1, tmp);
	out[len] = '\0';
	fclose(tmp);
	return rc;
}

static int check_fail(const OxFunc *fn, OxDevPtr dx, OxDevPtr dy, int emulated)
{
	static char out[1 << 16];
	char want[512];
	int rc;

	snprintf(want, sizeof want, "src/lib.rs:14: device_assert: block: "
	         "[%u,0,0], thread: [%u,0,0] Assertion `i >= x.len() || x[i] "
	         "< limit: x is below the limit` failed.", BAD / BLOCK,
	         BAD % BLOCK);
	x[BAD] = LIMIT;
	OX_CHECK(ox_copy_to_device(dx, x, sizeof x));
	rc = launch_captured(fn, dx, dy, out, sizeof out);
	if (out[0] != '\0')
		printf("  captured output:\n    %s", out);
	if (rc == 0) {
		printf("FAIL device_assert: x[%u] = limit, but the launch "
		       "succeeded\n", BAD);
		return 1;
	}
	if (ox_error_code() != CUDA_ERROR_ASSERT) {
		printf("FAIL device_assert: expected CUDA_ERROR_ASSERT, got:\n  %s\n",
		       ox_error());
		return 1;
	}
	if (strstr(out, want) != NULL) {
		printf("PASS device_assert: the failed assert stopped the launch "
		       "(%s) and reported its file, line, thread and text\n",
		       ox_error_name());
		return 0;
	}
	if (!emulated && strstr(out, "Assertion") == NULL) {
		printf("PASS device_assert: the failed assert stopped the launch "
		       "(%s); NOTE: the driver printed no message before the "
		       "error was reported, so its text was not checked\n",
		       ox_error_name());
		return 0;
	}
	printf("FAIL device_assert: the output lacks\n    %s\n", want);
	return 1;
}

int main(int argc, char **argv)
{
	OxModule mod;
	OxFunc fn;
	OxDevPtr dx, dy;
	size_t len;
	int failed;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE.ptx|MODULE.cubin|MODULE.so\n", argv[0]);
		return 2;
	}
	len = strlen(argv[1]);
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&fn, &mod, "checked_scale"));
	for (uint32_t i = 0; i < N; i++)
		x[i] = (i * 2654435761u) % LIMIT;
	OX_CHECK(ox_alloc(&dx, sizeof x));
	OX_CHECK(ox_alloc(&dy, sizeof y));
	failed = check_pass(&fn, dx, dy);
	/* The deliberate failed assert is left out under compute-sanitizer,
	 * which reports any failed launch as an error (OX_SKIP_TRAP_TEST, as
	 * for vecadd's trap). */
	if (getenv("OX_SKIP_TRAP_TEST")) {
		OX_CHECK(ox_free(dx));
		OX_CHECK(ox_free(dy));
		return failed != 0;
	}
	failed += check_fail(&fn, dx, dy, len > 3 && strcmp(argv[1] + len - 3, ".so") == 0);
	return failed != 0;         /* the context is unusable: no cleanup */
}
