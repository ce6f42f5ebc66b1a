/* tests/emu/test_emu.c: the emulator through the oxrt API, on the
 * hand-written kernels of tests/emu/kernels.c: barriers (a reversal, a
 * tree reduction with a barrier per level, threads that return before
 * one, full 1024-thread blocks), thread and block indices in 3-D grids, a
 * trap while other threads wait at a barrier (its message, and that the
 * process goes on), named barriers counted by warps (a partial warp,
 * returned lanes, a barrier that cannot complete, a bad id), a failed
 * device assert, launch limits and error names, a recursion deeper
 * than the fibers' default stack after ox_set_stack_size, and Hopper's
 * primitives: an mbarrier pipeline of bulk copies across warps (phases,
 * expect_tx), TMA boxes with and without the 128-byte swizzle and with
 * out-of-bounds fill (the shared-memory bytes against a layout computed
 * here), wgmma m64n64k16 from unswizzled and 128B-swizzled operands
 * against a plain matrix product, elect.sync, and the failures: threads
 * spinning on an mbarrier that cannot complete, the shared address of
 * global memory; thread-block clusters (ox_launch_cluster): barrier.cluster
 * phases with split arrive / wait and exited threads, reads of another
 * block's shared memory through mapa, the cluster registers of a 3-D
 * cluster shape, the shapes a launch refuses, and the failures: a wait
 * without an arrival, two arrivals, mapa to an exited block or of global
 * memory, a read of an exited block's shared memory through a pointer
 * mapped before, a cluster barrier that cannot complete; streams: copies
 * and launches on two streams from pinned memory, events on them, a trap
 * reported by ox_stream_synchronize.
 * Prints PASS/FAIL lines and "N passed, M failed"; exits 1 on failure.
 * usage: test_emu build/emu/test_kernels.so */
#include "../../src/runtime/oxrt.h"

#include <math.h>
#include <stdint.h>
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

/* One stream's work: copy n words in, out = 3 in + k twice over (the
 * second launch reads the first's output: issue order), copy out. */
static void stream_work(const OxStream *s, const OxFunc *f, OxDevPtr *buf, const unsigned *host_in,
                        unsigned *host_out, unsigned k, size_t n)
{
	void *a1[] = {&buf[0], &buf[1], &k}, *a2[] = {&buf[1], &buf[0], &k};

	OX_CHECK(ox_copy_to_device_async(buf[0], host_in, n * 4, s));
	OX_CHECK(ox_launch_on(f, ox_dim((unsigned)n / 64, 1, 1), ox_dim(64, 1, 1), 0, s, a1));
	OX_CHECK(ox_launch_on(f, ox_dim((unsigned)n / 64, 1, 1), ox_dim(64, 1, 1), 0, s, a2));
	OX_CHECK(ox_copy_from_device_async(host_out, buf[0], n * 4, s));
}

static void test_streams(void)
{
	enum { N = 256 };
	OxFunc f = kernel("scale_add"), t = kernel("trap_at");
	OxStream s[2];
	OxEvent e[2];
	OxDevPtr buf[2][2];
	unsigned *in, *out, b = 0, th = 1;
	void *targs[] = {&b, &th, &buf[0][0]};
	float ms = -1;
	int ok = 1;

	OX_CHECK(ox_host_alloc((void **)&in, 2 * N * 4));
	OX_CHECK(ox_host_alloc((void **)&out, 2 * N * 4));
	for (int j = 0; j < 2; j++) {
		OX_CHECK(ox_stream_create(&s[j]));
		OX_CHECK(ox_event_create(&e[j]));
		OX_CHECK(ox_alloc(&buf[j][0], N * 4));
		OX_CHECK(ox_alloc(&buf[j][1], N * 4));
	}
	check(s[0].handle != NULL && s[1].handle != NULL && s[0].handle != s[1].handle,
	      "streams: two distinct streams");
	for (unsigned i = 0; i < 2 * N; i++)
		in[i] = i * 13 + 1;
	OX_CHECK(ox_event_record_on(&e[0], &s[0]));
	for (int j = 0; j < 2; j++)
		stream_work(&s[j], &f, buf[j], in + j * N, out + j * N, 5 + (unsigned)j, N);
	OX_CHECK(ox_event_record_on(&e[1], &s[1]));
	check(ox_stream_synchronize(&s[1]) == 0 && ox_stream_synchronize(&s[0]) == 0,
	      "streams: both synchronize");
	for (unsigned i = 0; ok && i < 2 * N; i++)
		ok = out[i] == 3 * (3 * in[i] + 5 + i / N) + 5 + i / N;
	check(ok, "streams: copies and two dependent launches on each of two streams, in issue order");
	check(ox_event_elapsed_ms(&ms, &e[0], &e[1]) == 0 && ms >= 0, "streams: events recorded on streams");
	OX_CHECK(ox_launch_on(&t, ox_dim(2, 1, 1), ox_dim(32, 1, 1), 0, &s[1], targs));
	check(ox_stream_synchronize(&s[1]) != 0 && ox_error_is_trap() && strstr(ox_error(), "ox_stream_synchronize(stream)") != NULL,
	      "streams: a trap on a stream is reported by ox_stream_synchronize");
	for (int j = 0; j < 2; j++) {
		OX_CHECK(ox_free(buf[j][0]));
		OX_CHECK(ox_free(buf[j][1]));
		ox_event_destroy(&e[j]);
		OX_CHECK(ox_stream_destroy(&s[j]));
	}
	check(s[0].handle == NULL && ox_stream_synchronize(NULL) == 0, "streams: destroyed; the default stream is idle");
	OX_CHECK(ox_host_free(in));
	OX_CHECK(ox_host_free(out));
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


/* ---- Hopper ---- */

enum { PIPE_ROUNDS = 6, PIPE_WORDS = 64 };

static void test_mbar_pipe(void)
{
	enum { N = PIPE_ROUNDS * PIPE_WORDS };
	unsigned src[N], got[N + 2 * PIPE_ROUNDS];
	OxFunc f = kernel("mbar_pipe");
	OxDevPtr dsrc, dout;
	void *args[] = {&dsrc, &dout};
	int ok = 1, flags = 1;

	for (unsigned i = 0; i < N; i++)
		src[i] = i / PIPE_WORDS * 1000 + i % PIPE_WORDS + 7;
	OX_CHECK(ox_alloc(&dsrc, sizeof src));
	OX_CHECK(ox_alloc(&dout, sizeof got));
	OX_CHECK(ox_copy_to_device(dsrc, src, sizeof src));
	OX_CHECK(ox_memset32(dout, 0, N + 2 * PIPE_ROUNDS));
	ok = ox_launch_sync(&f, ox_dim(1, 1, 1), ox_dim(64, 1, 1), 544, args) == 0;
	if (!ok)
		printf("    %s\n", ox_error());
	OX_CHECK(ox_copy_from_device(got, dout, sizeof got));
	for (unsigned i = 0; ok && i < N; i++)
		if (got[i] != src[i]) {
			printf("    round %u word %u: %#x, want %#x\n", i / PIPE_WORDS, i % PIPE_WORDS, got[i], src[i]);
			ok = 0;
		}
	for (unsigned r = 0; r < PIPE_ROUNDS; r++)
		flags &= got[N + 2 * r] == 0 && got[N + 2 * r + 1] == 1;
	check(ok, "mbarrier: 6 rounds of bulk copies through 2 stages, producer warp 1, consumer warp 0 "
	      "(full and empty barriers, phases)");
	check(ok && flags, "mbarrier: expect_tx of 256 bytes: the phase completes after the second 128-byte "
	      "copy, not the first");
	OX_CHECK(ox_free(dsrc));
	OX_CHECK(ox_free(dout));
}

/* A tensor of 40 rows of 100 bf16 (row stride 208 bytes); element (c, r)
 * is 1000 r + c + 1. */
enum { TR = 40, TC = 100, TSTRIDE = 208, BOXC = 64, BOXR = 16 };

static uint16_t tensor_value(long r, long c)
{
	return (uint16_t)(1000 * r + c + 1);
}

/* The box at (x, y) as TMA writes it: row-major, zeros outside the
 * tensor; with the 128-byte swizzle the 16-byte chunk c of row r (each
 * row is 128 bytes) is stored at chunk c ^ (r % 8). */
static void tma_expected(unsigned char *want, int x, int y, int swizzled)
{
	for (unsigned r = 0; r < BOXR; r++)
		for (unsigned c = 0; c < BOXC; c++) {
			long gr = (long)y + r, gc = (long)x + c;
			uint16_t v = gr < 0 || gr >= TR || gc < 0 || gc >= TC ? 0 : tensor_value(gr, gc);
			unsigned chunk = c * 2 / 16, at = r * 128 + c * 2 % 16;

			at += 16 * (swizzled ? chunk ^ r % 8 : chunk);
			memcpy(want + at, &v, 2);
		}
}

static void test_tma(unsigned swizzle, int x, int y, const char *what)
{
	enum { BYTES = BOXR * BOXC * 2 };
	unsigned char *host = calloc(TR, TSTRIDE), got[BYTES], want[BYTES];
	OxTensorMapDesc d = {0};
	OxTensorMap map;
	OxFunc f = kernel("tma_box");
	OxDevPtr tensor, dmap, dout;
	unsigned bytes = BYTES;
	void *args[] = {&dmap, &x, &y, &dout, &bytes};
	int ok;

	for (unsigned r = 0; r < TR; r++)
		for (unsigned c = 0; c < TC; c++) {
			uint16_t v = tensor_value(r, c);
			memcpy(host + r * TSTRIDE + c * 2, &v, 2);
		}
	OX_CHECK(ox_alloc(&tensor, TR * TSTRIDE));
	OX_CHECK(ox_copy_to_device(tensor, host, TR * TSTRIDE));
	d.global = tensor;
	d.rank = 2;
	d.elem_bytes = 2;
	d.dims[0] = TC;
	d.dims[1] = TR;
	d.strides[0] = TSTRIDE;
	d.box[0] = BOXC;
	d.box[1] = BOXR;
	d.swizzle = swizzle;
	OX_CHECK(ox_tensor_map_encode(&map, &f, &d));
	OX_CHECK(ox_alloc(&dmap, sizeof map));
	OX_CHECK(ox_copy_to_device(dmap, &map, sizeof map));
	OX_CHECK(ox_alloc(&dout, BYTES));
	ok = ox_launch_sync(&f, ox_dim(1, 1, 1), ox_dim(32, 1, 1), BYTES + 8, args) == 0;
	if (!ok)
		printf("    %s\n", ox_error());
	OX_CHECK(ox_copy_from_device(got, dout, BYTES));
	tma_expected(want, x, y, swizzle == 128);
	for (unsigned i = 0; ok && i < BYTES; i++)
		if (got[i] != want[i]) {
			printf("    byte %u: %#x, want %#x\n", i, got[i], want[i]);
			ok = 0;
		}
	check(ok, what);
	OX_CHECK(ox_free(tensor));
	OX_CHECK(ox_free(dmap));
	OX_CHECK(ox_free(dout));
	free(host);
}

/* bf16 bits of a small integer (exact) */
static uint16_t bf16(int v)
{
	float x = (float)v;
	uint32_t u;

	memcpy(&u, &x, sizeof u);
	return (uint16_t)(u >> 16);
}

/* operand values: A[m][k], and B[k][n] stored K-major as Bt[n][k] (two
 * of them, b = 0, 1) */
static int a_val(unsigned m, unsigned k) { return (int)((m * 3 + k * 5) % 7) - 3; }
static int b_val(unsigned b, unsigned n, unsigned k) { return (int)((n * 2 + k * 3 + b * 4) % 5) - 2; }

static void put_bf16(unsigned char *img, size_t at, int v)
{
	uint16_t h = bf16(v);

	memcpy(img + at, &h, 2);
}

/* a descriptor: start (bytes from the start of dynamic shared memory),
 * LBO, SBO, swizzle mode */
static unsigned long long wg_desc(unsigned start, unsigned lbo, unsigned sbo, unsigned mode)
{
	return (unsigned long long)(start >> 4) | (unsigned long long)(lbo >> 4) << 16 |
	       (unsigned long long)(sbo >> 4) << 32 | (unsigned long long)mode << 62;
}

/* Runs wgmma_run and compares thread t's d[i] (row 16 (t / 32) + (t %
 * 32) / 4 + 8 ((i / 2) % 2), column 8 (i / 4) + 2 (t % 4) + i % 2) with
 * want[row][col]. */
static int wgmma_check(const unsigned char *img, unsigned bytes, const unsigned long long *steps,
                       unsigned nsteps, double want[64][64])
{
	OxFunc f = kernel("wgmma_run");
	OxDevPtr dimg, dsteps, dout;
	float *got = malloc(128 * 32 * sizeof *got);
	void *args[] = {&dimg, &bytes, &dsteps, &nsteps, &dout};
	int ok;

	OX_CHECK(ox_alloc(&dimg, bytes));
	OX_CHECK(ox_copy_to_device(dimg, img, bytes));
	OX_CHECK(ox_alloc(&dsteps, 3 * nsteps * sizeof *steps));
	OX_CHECK(ox_copy_to_device(dsteps, steps, 3 * nsteps * sizeof *steps));
	OX_CHECK(ox_alloc(&dout, 128 * 32 * sizeof *got));
	ok = got != NULL && ox_launch_sync(&f, ox_dim(1, 1, 1), ox_dim(128, 1, 1), bytes, args) == 0;
	if (!ok)
		printf("    %s\n", ox_error());
	else
		OX_CHECK(ox_copy_from_device(got, dout, 128 * 32 * sizeof *got));
	for (unsigned t = 0; ok && t < 128; t++)
		for (unsigned i = 0; ok && i < 32; i++) {
			unsigned row = 16 * (t / 32) + t % 32 / 4 + 8 * (i / 2 % 2), col = 8 * (i / 4) + 2 * (t % 4) + i % 2;

			if (got[32 * t + i] != want[row][col]) {
				printf("    thread %u d[%u] (row %u, column %u): %g, want %g\n", t, i, row, col,
				       got[32 * t + i], want[row][col]);
				ok = 0;
			}
		}
	OX_CHECK(ox_free(dimg));
	OX_CHECK(ox_free(dsteps));
	OX_CHECK(ox_free(dout));
	free(got);
	return ok;
}

/* No swizzle, K = 16: A's core matrices (8 rows x 16 bytes) with LBO
 * 1024, SBO 128 at 0; Bt's (two of them, at 2048 and 4096) with LBO 128,
 * SBO 256. D = A B0 (scale_d 0 over NaN), then D += A B1. */
static void test_wgmma_plain(void)
{
	static unsigned char img[6144];
	static double want[64][64];
	unsigned long long steps[6] = {
		wg_desc(0, 1024, 128, 0), wg_desc(2048, 128, 256, 0), 0,
		wg_desc(0, 1024, 128, 0), wg_desc(4096, 128, 256, 0), 1,
	};

	for (unsigned r = 0; r < 64; r++)
		for (unsigned k = 0; k < 16; k++) {
			put_bf16(img, r / 8 * 128 + r % 8 * 16 + k / 8 * 1024 + k % 8 * 2, a_val(r, k));
			for (unsigned b = 0; b < 2; b++)
				put_bf16(img, 2048 * (b + 1) + r / 8 * 256 + r % 8 * 16 + k / 8 * 128 + k % 8 * 2,
				         b_val(b, r, k));
		}
	for (unsigned m = 0; m < 64; m++)
		for (unsigned n = 0; n < 64; n++) {
			want[m][n] = 0;
			for (unsigned k = 0; k < 16; k++)
				want[m][n] += a_val(m, k) * (b_val(0, n, k) + b_val(1, n, k));
		}
	check(wgmma_check(img, sizeof img, steps, 2, want),
	      "wgmma m64n64k16: unswizzled core matrices (LBO, SBO), scale_d 0 then 1, against A B0 + A B1");
}

/* The 128-byte swizzle, K = 64 in four steps of 16: A (64 x 64) at 0 and
 * Bt (64 x 64) at 8192, each row 128 bytes, atoms of 8 rows (SBO 1024),
 * the 16-byte chunk c of row r stored at chunk c ^ (r % 8); each step's
 * start address 32 bytes on. */
static void test_wgmma_swizzled(void)
{
	static unsigned char img[16384];
	static double want[64][64];
	unsigned long long steps[12];

	for (unsigned r = 0; r < 64; r++)
		for (unsigned k = 0; k < 64; k++) {
			unsigned chunk = k * 2 / 16, at = r / 8 * 1024 + r % 8 * 128 + 16 * (chunk ^ r % 8) + k * 2 % 16;

			put_bf16(img, at, a_val(r, k));
			put_bf16(img, 8192 + at, b_val(0, r, k));
		}
	for (unsigned s = 0; s < 4; s++) {
		steps[3 * s] = wg_desc(32 * s, 16, 1024, 1);
		steps[3 * s + 1] = wg_desc(8192 + 32 * s, 16, 1024, 1);
		steps[3 * s + 2] = s > 0;
	}
	for (unsigned m = 0; m < 64; m++)
		for (unsigned n = 0; n < 64; n++) {
			want[m][n] = 0;
			for (unsigned k = 0; k < 64; k++)
				want[m][n] += a_val(m, k) * b_val(0, n, k);
		}
	check(wgmma_check(img, sizeof img, steps, 4, want),
	      "wgmma m64n64k16: 128B-swizzled operands, K = 64 in 4 steps, against a plain 64x64x64 product");
}

/* blocks of 224: warpgroup 0 has 128 threads, warpgroup 1 96 */
static void test_wg_wait(void)
{
	unsigned got[512];
	OxFunc f = kernel("wg_wait");
	OxDevPtr out;
	void *args[] = {&out};
	int ok;

	OX_CHECK(ox_alloc(&out, sizeof got));
	OX_CHECK(ox_memset32(out, 0, 512));
	ok = ox_launch_sync(&f, ox_dim(1, 1, 1), ox_dim(224, 1, 1), 0, args) == 0;
	OX_CHECK(ox_copy_from_device(got, out, sizeof got));
	for (unsigned t = 0; ok && t < 224; t++) {
		ok = got[256 + t] == (t < 128 ? 128u : 96u);
		if (!ok)
			printf("    thread %u counted %u\n", t, got[256 + t]);
	}
	check(ok, "wgmma_wait_group: no thread passes before every thread of its warpgroup is in (a full "
	      "warpgroup and one of 3 warps)");
	OX_CHECK(ox_free(out));
}

static void test_elect(void)
{
	unsigned got[128];
	OxFunc f = kernel("elect");
	OxDevPtr out;
	void *args[] = {&out};
	int ok;

	OX_CHECK(ox_alloc(&out, sizeof got));
	OX_CHECK(ox_memset32(out, 0, 128));
	ok = ox_launch_sync(&f, ox_dim(1, 1, 1), ox_dim(64, 1, 1), 0, args) == 0;
	OX_CHECK(ox_copy_from_device(got, out, sizeof got));
	for (unsigned t = 0; ok && t < 64; t++) {
		unsigned want = t < 4 ? 0 : t == 4 || t == 32 ? 2 : 1;
		unsigned want2 = t >= 40 && t < 48 ? (t == 40 ? 2 : 1) : 0;

		ok = got[t] == want && got[64 + t] == want2;
		if (!ok)
			printf("    thread %u: %u %u, want %u %u\n", t, got[t], got[64 + t], want, want2);
	}
	check(ok, "elect_sync: the lowest lane of the mask that takes part, in each warp and in a sub-mask");
	OX_CHECK(ox_free(out));
}

/* Launches a kernel of one argument, an output of 64 words, expecting
 * CUDA_ERROR_LAUNCH_FAILED with `why` in the message. */
static void expect_failure(const char *name, unsigned shared, const char *why, const char *what)
{
	OxFunc f = kernel(name);
	OxDevPtr out;
	void *args[] = {&out};
	int ok;

	OX_CHECK(ox_alloc(&out, 64 * 4));
	ok = ox_launch_sync(&f, ox_dim(2, 1, 1), ox_dim(64, 1, 1), shared, args) != 0 &&
	     strcmp(ox_error_name(), "CUDA_ERROR_LAUNCH_FAILED") == 0 && strstr(ox_error(), why) != NULL;
	check(ok, what);
	if (!ok)
		printf("    %s\n", ox_error());
	OX_CHECK(ox_free(out));
}

/* tma_misuse(map, mode) with a by-value 2-D map of 16 x 16 two-byte
 * elements, box 16 x 8, the given swizzle: the launch fails, saying why. */
static void expect_tma_failure(unsigned mode, unsigned swizzle, const char *why, const char *what)
{
	OxFunc f = kernel("tma_misuse");
	OxTensorMapDesc d = {.rank = 2, .elem_bytes = 2, .dims = {16, 16}, .strides = {32}, .box = {16, 8},
	                     .swizzle = swizzle};
	OxTensorMap map;
	OxDevPtr tensor;
	void *args[] = {&map, &mode};
	int ok;

	OX_CHECK(ox_alloc(&tensor, 512));
	d.global = tensor;
	OX_CHECK(ox_tensor_map_encode(&map, &f, &d));
	ok = ox_launch_sync(&f, ox_dim(1, 1, 1), ox_dim(32, 1, 1), 2048, args) != 0 &&
	     strcmp(ox_error_name(), "CUDA_ERROR_LAUNCH_FAILED") == 0 && strstr(ox_error(), why) != NULL;
	check(ok, what);
	if (!ok)
		printf("    %s\n", ox_error());
	OX_CHECK(ox_free(tensor));
}

static void test_hopper_failures(void)
{
	expect_tma_failure(0, 0, "tma_load_3d with a tensor map of rank 2 (a 3-D copy needs rank 3)",
	                   "TMA: a copy of another rank than its map's fails the launch");
	expect_tma_failure(1, 0, "tma_store_2d: the shared box at",
	                   "TMA: a shared box not 128-byte aligned fails the launch");
	expect_tma_failure(2, 0, "holds no tensor map of ox_tensor_map_encode",
	                   "TMA: a map that ox_tensor_map_encode did not write fails the launch");
	expect_tma_failure(3, 64, "tma_store_2d: box rows of 32 bytes with the 64-byte swizzle: not emulated",
	                   "TMA: a swizzled box narrower than the swizzle span fails the launch (not emulated)");
	expect_tma_failure(4, 0, "tma_load_multicast_2d: cta_mask 0x3 names ranks beyond the cluster",
	                   "TMA: a multicast to a CTA beyond the cluster fails the launch");
	expect_tma_failure(5, 0, "tma_load_2d: the box of 256 bytes at",
	                   "TMA: a box past the end of dynamic shared memory fails the launch");
	expect_tma_failure(6, 0, "tma_store_2d: the box starts at x = 4, byte 8 of a row: not a multiple of 16 bytes",
	                   "TMA: a box starting at byte 8 of a row fails the launch (the H200 faults)");
	expect_failure("mbar_hang", 8, "would hang on a GPU: 64 threads spin forever in mbarrier_try_wait_parity; "
	               "this one waits for the phase of parity 0 of the mbarrier at shared address 0x400 "
	               "(current parity 0, 1 of 2 arrivals pending",
	               "mbarrier: threads that spin on a phase that cannot complete fail the launch");
	expect_failure("smem_outside", 0, "smem_addr of memory outside the dynamic shared memory",
	               "smem_addr of global memory fails the launch (not emulated)");
}

/* Launches name in clusters of `cluster` with one output buffer of n
 * words (poisoned), copied into got when it succeeded. */
static int run_cluster(const char *name, OxDim3 grid, OxDim3 block, OxDim3 cluster, unsigned shared,
                       unsigned *got, size_t n)
{
	OxFunc f = kernel(name);
	OxDevPtr out;
	void *args[] = {&out};
	int rc;

	OX_CHECK(ox_alloc(&out, n * 4));
	OX_CHECK(ox_memset32(out, 0xdeadbeefu, n));
	rc = ox_launch_cluster(&f, grid, block, cluster, shared, args);
	if (rc == 0)
		rc = ox_synchronize();
	if (rc == 0 && got != NULL)
		OX_CHECK(ox_copy_from_device(got, out, n * 4));
	OX_CHECK(ox_free(out));
	return rc;
}

static void test_cluster_phases(void)
{
	unsigned got[8 * 64];
	int ok = run_cluster("cl_phases", ox_dim(8, 1, 1), ox_dim(64, 1, 1), ox_dim(4, 1, 1), 256, got, 8 * 64) == 0;

	for (unsigned i = 0; ok && i < 8 * 64; i++) {
		unsigned rank = i / 64 % 4, t = i % 64;
		ok = got[i] == (rank == 3 && t >= 48 ? 0xdeadbeefu : 3);
	}
	check(ok, "cluster: 3 barrier.cluster phases over 2 clusters of 4 blocks, split arrive/wait, exited "
	      "threads, reads of the next block's shared memory (mapa)");
	if (!ok)
		printf("    %s\n", ox_error());
}

static void test_cluster_last(void)
{
	unsigned got[4 * 64];
	int ok = run_cluster("cl_last", ox_dim(4, 1, 1), ox_dim(64, 1, 1), ox_dim(2, 1, 1), 256, got, 4 * 64) == 0;

	for (unsigned i = 0; ok && i < 4 * 64; i++)
		ok = got[i] == 2;
	check(ok, "cluster: barrier.cluster waits for the last thread to arrive (one not yet started)");
	if (!ok)
		printf("    %s\n", ox_error());
}

static void test_cluster_regs(void)
{
	enum { GX = 4, GY = 2, GZ = 4 };
	unsigned got[GX * GY * GZ * 16];
	int ok = run_cluster("cl_regs", ox_dim(GX, GY, GZ), ox_dim(32, 1, 1), ox_dim(2, 1, 2), 0, got,
	                     GX * GY * GZ * 16) == 0;

	for (unsigned z = 0; ok && z < GZ; z++)
		for (unsigned y = 0; ok && y < GY; y++)
			for (unsigned x = 0; ok && x < GX; x++) {
				const unsigned *w = &got[((z * GY + y) * GX + x) * 16];
				unsigned want[15] = {x % 2 + 2 * (z % 2), 4, x % 2, 0, z % 2, 2, 1, 2, x / 2, y, z / 2, 1,
				                     GX / 2, GY, GZ / 2};
				ok = memcmp(w, want, sizeof want) == 0;
				if (!ok)
					printf("    block (%u,%u,%u): rank %u of %u, clusterid (%u,%u,%u)\n", x, y, z, w[0], w[1],
					       w[8], w[9], w[10]);
			}
	check(ok, "cluster: the registers of clusters of 2x1x2 blocks in a 4x2x4 grid");
	ok = run_cluster("cl_regs", ox_dim(2, 1, 1), ox_dim(32, 1, 1), ox_dim(2, 2, 4), 0, NULL, 64) != 0 &&
	     ox_error_code() == 912 && strstr(ox_error(), "at most 8 blocks") != NULL;
	check(ok, "cluster: 16 blocks is CUDA_ERROR_INVALID_CLUSTER_SIZE");
	ok = run_cluster("cl_regs", ox_dim(3, 1, 1), ox_dim(32, 1, 1), ox_dim(2, 1, 1), 0, NULL, 64) != 0 &&
	     ox_error_code() == 912 && strstr(ox_error(), "not a whole number of clusters") != NULL;
	check(ok, "cluster: a grid of 3 blocks in clusters of 2 is CUDA_ERROR_INVALID_CLUSTER_SIZE");
}

/* A cluster launch that must fail with why in its message. */
static void cluster_failure(const char *name, unsigned shared, const char *why, const char *what)
{
	int ok = run_cluster(name, ox_dim(2, 1, 1), ox_dim(64, 1, 1), ox_dim(2, 1, 1), shared, NULL, 128) != 0 &&
	         strcmp(ox_error_name(), "CUDA_ERROR_LAUNCH_FAILED") == 0 && strstr(ox_error(), why) != NULL;

	check(ok, what);
	if (!ok)
		printf("    %s\n", ox_error());
}

static void test_cluster_failures(void)
{
	cluster_failure("cl_wait_alone", 0, "barrier_cluster_wait without a barrier_cluster_arrive",
	                "cluster: a wait without an arrival fails the launch");
	cluster_failure("cl_arrive_twice", 0, "barrier_cluster_arrive twice",
	                "cluster: two arrivals without a wait fail the launch");
	cluster_failure("cl_mapa_exited", 4, "mapa to block rank 1 of the cluster, which has exited",
	                "cluster: mapa to a block that exited fails the launch");
	cluster_failure("cl_mapa_global", 0, "which is not in this block's shared memory",
	                "cluster: mapa of global memory fails the launch");
	cluster_failure("cl_arrive_far", 8, "mapa to block rank 2 of a cluster of 2 blocks",
	                "cluster: mbarrier_arrive_cluster to a rank beyond the cluster fails the launch");
	cluster_failure("cl_stale", 256, "an access to the shared memory of block rank 1 of the cluster",
	                "cluster: a read of an exited block's shared memory through an old mapa pointer fails the launch");
	cluster_failure("cl_hang", 0, "would hang on a GPU: 1 threads of this block wait forever at "
	                "barrier_cluster_wait", "cluster: a cluster barrier that cannot complete fails the launch");
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
	{
		int sms = 0;
		int ok = ox_device_attribute(&sms, OX_DEV_MULTIPROCESSOR_COUNT) == 0 && sms == 1 &&
		         ox_device_attribute(&sms, 1) != 0 && strcmp(ox_error_name(), "CUDA_ERROR_INVALID_VALUE") == 0;
		check(ok, "device attribute: 1 multiprocessor (one cluster at a time), no other attribute");
	}
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
	test_streams();
	test_stack();
	test_mbar_pipe();
	test_tma(128, 56, 30, "TMA: a 64x16 bf16 box with the 128-byte swizzle, partly outside the tensor (zeros)");
	test_tma(0, -8, 2, "TMA: a 64x16 bf16 box without swizzle at a negative x (zeros)");
	test_wgmma_plain();
	test_wgmma_swizzled();
	test_wg_wait();
	test_elect();
	test_hopper_failures();
	test_cluster_phases();
	test_cluster_last();
	test_cluster_regs();
	test_cluster_failures();
	ox_module_unload(&mod);
	ox_shutdown();
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail != 0;
}
