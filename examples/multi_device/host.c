/* examples/multi_device/host.c: one job over every device of the machine.
 * n words x are split into one share per device; each device loads the
 * module (its own copy: a module belongs to the device current at its
 * load), squares its share (square_plus: y = x * x + 1, wrapping) on its
 * own stream, and the shares are copied into one buffer on device 0
 * (ox_copy_peer); device 0 then sums the whole (stride_sums: per-thread
 * wrapping sums, added up here). Checked word for word and in the sum
 * against the host. With one device it is one share. Emulated, the
 * devices are OX_EMU_DEVICES (tests/emu/run.sh runs it with 3); then a
 * kernel of another device's module must be refused.
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "multi_device.h"     /* oxidec --emit=header: typed launchers */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEVICES 64
#define BLOCK 256u
#define SUM_THREADS (64u * BLOCK)
#define INVALID_CONTEXT 201

typedef struct {
	OxModule mod;
	OxFunc square;
	OxStream stream;
	OxDevPtr x, y;
	size_t first, count;          /* its share of the n words */
} Share;

static uint32_t rng_state = 0x2545f491u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* Device d's share: module, stream, buffers, its part of x, the launch. */
static void start_share(Share *s, int d, const char *path, const uint32_t *x)
{
	OX_CHECK(ox_device_select(d));
	if (d > 0)
		OX_CHECK(ox_module_load(&s->mod, path));
	OX_CHECK(square_plus_function(&s->square, &s->mod));
	OX_CHECK(ox_stream_create(&s->stream));
	OX_CHECK(ox_alloc(&s->x, s->count * sizeof *x));
	OX_CHECK(ox_alloc(&s->y, s->count * sizeof *x));
	OX_CHECK(ox_copy_to_device_async(s->x, x + s->first, s->count * sizeof *x, &s->stream));
	OX_CHECK(square_plus_launch(&s->square, ox_dim(ox_blocks_for(s->count, BLOCK), 1, 1), ox_dim(BLOCK, 1, 1),
	                            0, &s->stream, OX_DEVICE_PTR(const uint32_t, s->x), s->count,
	                            OX_DEVICE_PTR(uint32_t, s->y), s->count));
}

static void finish_share(Share *s, int d, OxDevPtr whole)
{
	OX_CHECK(ox_device_select(d));
	OX_CHECK(ox_stream_synchronize(&s->stream));
	OX_CHECK(ox_copy_peer(whole + s->first * sizeof(uint32_t), 0, s->y, d, s->count * sizeof(uint32_t)));
	OX_CHECK(ox_free(s->x));
	OX_CHECK(ox_free(s->y));
	OX_CHECK(ox_stream_destroy(&s->stream));
}

/* A kernel of device 1's module while device 0 is current. */
static int check_refusal(Share *shares, int devices)
{
	if (devices < 2)
		return 0;
	OX_CHECK(ox_device_select(0));
	if (square_plus_launch(&shares[1].square, ox_dim(1, 1, 1), ox_dim(1, 1, 1), 0, NULL, NULL, 0, NULL, 0) == 0 ||
	    ox_error_code() != INVALID_CONTEXT) {
		printf("FAIL refused: a kernel of device 1's module launched while device 0 was current\n");
		return 1;
	}
	printf("PASS refused: a kernel of device 1's module does not launch on device 0\n");
	return 0;
}

int main(int argc, char **argv)
{
	const size_t n = 1000003;
	uint32_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), sums[SUM_THREADS], total = 0, want = 0;
	Share *shares = calloc(MAX_DEVICES, sizeof *shares);
	OxFunc stride;
	OxDevPtr whole, dsums;
	int devices = 0, failed = 0;
	size_t bad = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE.ptx|MODULE.cubin|MODULE.so\n", argv[0]);
		return 2;
	}
	if (x == NULL || y == NULL || shares == NULL)
		return 1;
	for (size_t i = 0; i < n; i++)
		x[i] = rng_next();
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&shares[0].mod, argv[1]));   /* picks the backend; then count */
	OX_CHECK(ox_device_count(&devices));
	if (devices > MAX_DEVICES)
		devices = MAX_DEVICES;
	for (int d = 0; d < devices; d++) {
		shares[d].first = n * (size_t)d / (size_t)devices;
		shares[d].count = n * (size_t)(d + 1) / (size_t)devices - shares[d].first;
		start_share(&shares[d], d, argv[1], x);
	}
	OX_CHECK(ox_device_select(0));
	OX_CHECK(ox_alloc(&whole, n * sizeof *x));
	for (int d = 0; d < devices; d++)
		finish_share(&shares[d], d, whole);
	OX_CHECK(ox_device_select(0));
	OX_CHECK(stride_sums_function(&stride, &shares[0].mod));
	OX_CHECK(ox_alloc(&dsums, sizeof sums));
	OX_CHECK(stride_sums_launch(&stride, ox_dim(SUM_THREADS / BLOCK, 1, 1), ox_dim(BLOCK, 1, 1), 0, NULL,
	                            OX_DEVICE_PTR(const uint32_t, whole), n, OX_DEVICE_PTR(uint32_t, dsums),
	                            SUM_THREADS));
	OX_CHECK(ox_copy_from_device(sums, dsums, sizeof sums));
	OX_CHECK(ox_copy_from_device(y, whole, n * sizeof *y));
	for (size_t i = 0; i < n; i++) {
		uint32_t w = x[i] * x[i] + 1u;
		want += w;
		if (y[i] != w && bad++ < 5)
			printf("  y[%zu]: got %#x, want %#x\n", i, y[i], w);
	}
	for (unsigned t = 0; t < SUM_THREADS; t++)
		total += sums[t];
	printf("%s shares: %zu words over %d device%s, gathered on device 0 (%zu differ)\n", bad ? "FAIL" : "PASS",
	       n, devices, devices == 1 ? "" : "s", bad);
	printf("%s sum: %#x (want %#x)\n", total == want ? "PASS" : "FAIL", total, want);
	failed = bad != 0 || total != want;
	failed |= check_refusal(shares, devices);
	OX_CHECK(ox_device_select(0));
	OX_CHECK(ox_free(whole));
	OX_CHECK(ox_free(dsums));
	for (int d = 0; d < devices; d++)
		ox_module_unload(&shares[d].mod);
	free(x);
	free(y);
	free(shares);
	return failed;
}
