/* examples/multi_device/nccl.c: one job over every GPU of the machine,
 * combined with NCCL (issue 13 item 4). n words x are split into one
 * share per device; each device loads the module, squares its share
 * (square_plus: y = x * x + 1, wrapping) and sums it into SUM_THREADS
 * per-thread partial sums (stride_sums), all on its own stream; then
 * ncclAllReduce adds the devices' partial sums element by element (u32,
 * wrapping), so that every device ends with the same array, whose total
 * is the sum of the whole job. Checked against the host: each device's
 * reduced array equal to the others', its total equal to the host's.
 * NCCL works on oxrt's memory and streams because oxrt uses each
 * device's primary context, as the CUDA runtime that NCCL calls does.
 * NCCL_NVLS_ENABLE=0 is set unless the environment says otherwise (the
 * device machines' rule: no NVLink multicast). GPU only (tests/gpu/nccl.sh).
 * usage: nccl MODULE.ptx|MODULE.cubin */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "multi_device.h"     /* oxidec --emit=header: typed launchers */

#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_DEVICES 64
#define BLOCK 256u
#define SUM_THREADS (64u * BLOCK)

typedef struct {
	OxModule mod;
	OxFunc square, sums;
	OxStream stream;
	OxDevPtr x, y, partial;
	size_t first, count;          /* its share of the n words */
} Share;

#define NCCL_CHECK(call)                                                                     \
	do {                                                                                   \
		ncclResult_t r_ = (call);                                                        \
		if (r_ != ncclSuccess) {                                                         \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,            \
			        ncclGetErrorString(r_));                                          \
			exit(1);                                                                 \
		}                                                                                \
	} while (0)

static uint32_t rng_state = 0x2545f491u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* Device d's share, squared and summed into its partial sums. */
static void start_share(Share *s, int d, const char *path, const uint32_t *x)
{
	OX_CHECK(ox_device_select(d));
	if (d > 0)
		OX_CHECK(ox_module_load(&s->mod, path));
	OX_CHECK(square_plus_function(&s->square, &s->mod));
	OX_CHECK(stride_sums_function(&s->sums, &s->mod));
	OX_CHECK(ox_stream_create(&s->stream));
	OX_CHECK(ox_alloc(&s->x, s->count * sizeof *x));
	OX_CHECK(ox_alloc(&s->y, s->count * sizeof *x));
	OX_CHECK(ox_alloc(&s->partial, SUM_THREADS * sizeof(uint32_t)));
	OX_CHECK(ox_copy_to_device_async(s->x, x + s->first, s->count * sizeof *x, &s->stream));
	OX_CHECK(square_plus_launch(&s->square, ox_dim(ox_blocks_for(s->count, BLOCK), 1, 1), ox_dim(BLOCK, 1, 1),
	                            0, &s->stream, OX_DEVICE_PTR(const uint32_t, s->x), s->count,
	                            OX_DEVICE_PTR(uint32_t, s->y), s->count));
	OX_CHECK(stride_sums_launch(&s->sums, ox_dim(SUM_THREADS / BLOCK, 1, 1), ox_dim(BLOCK, 1, 1), 0, &s->stream,
	                            OX_DEVICE_PTR(const uint32_t, s->y), s->count,
	                            OX_DEVICE_PTR(uint32_t, s->partial), SUM_THREADS));
}

int main(int argc, char **argv)
{
	const size_t n = 1000003;
	uint32_t *x = malloc(n * sizeof *x), *reduced = malloc(SUM_THREADS * sizeof *reduced);
	uint32_t *first = malloc(SUM_THREADS * sizeof *first), want = 0;
	Share *shares = calloc(MAX_DEVICES, sizeof *shares);
	ncclComm_t comms[MAX_DEVICES];
	int devs[MAX_DEVICES], devices = 0, failed = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE.ptx|MODULE.cubin\n", argv[0]);
		return 2;
	}
	if (x == NULL || reduced == NULL || first == NULL || shares == NULL)
		return 1;
	setenv("NCCL_NVLS_ENABLE", "0", 0);
	for (size_t i = 0; i < n; i++) {
		x[i] = rng_next();
		want += x[i] * x[i] + 1u;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&shares[0].mod, argv[1]));
	OX_CHECK(ox_device_count(&devices));
	if (devices > MAX_DEVICES)
		devices = MAX_DEVICES;
	for (int d = 0; d < devices; d++) {
		devs[d] = d;
		shares[d].first = n * (size_t)d / (size_t)devices;
		shares[d].count = n * (size_t)(d + 1) / (size_t)devices - shares[d].first;
		start_share(&shares[d], d, argv[1], x);
	}
	NCCL_CHECK(ncclCommInitAll(comms, devices, devs));
	/* the all-reduce follows each device's kernels on that device's stream */
	NCCL_CHECK(ncclGroupStart());
	for (int d = 0; d < devices; d++)
		NCCL_CHECK(ncclAllReduce((const void *)shares[d].partial, (void *)shares[d].partial, SUM_THREADS,
		                         ncclUint32, ncclSum, comms[d], (cudaStream_t)shares[d].stream.handle));
	NCCL_CHECK(ncclGroupEnd());
	for (int d = 0; d < devices; d++) {
		uint32_t total = 0;
		size_t differ = 0;
		OX_CHECK(ox_device_select(d));
		OX_CHECK(ox_stream_synchronize(&shares[d].stream));
		OX_CHECK(ox_copy_from_device(reduced, shares[d].partial, SUM_THREADS * sizeof *reduced));
		for (unsigned t = 0; t < SUM_THREADS; t++) {
			total += reduced[t];
			if (d == 0)
				first[t] = reduced[t];
			else
				differ += reduced[t] != first[t];
		}
		printf("%s device %d of %d: all-reduced sum %#x (want %#x), %zu of %u partial sums differ from device 0's\n",
		       total == want && differ == 0 ? "PASS" : "FAIL", d, devices, total, want, differ, SUM_THREADS);
		failed |= total != want || differ != 0;
	}
	for (int d = 0; d < devices; d++) {
		NCCL_CHECK(ncclCommDestroy(comms[d]));
		OX_CHECK(ox_device_select(d));
		OX_CHECK(ox_free(shares[d].x));
		OX_CHECK(ox_free(shares[d].y));
		OX_CHECK(ox_free(shares[d].partial));
		OX_CHECK(ox_stream_destroy(&shares[d].stream));
		ox_module_unload(&shares[d].mod);
	}
	free(x);
	free(reduced);
	free(first);
	free(shares);
	return failed;
}
