/* bench/softmax_bf16/bench.c: oxidec's examples/softmax_bf16 against
 * nvcc's softmax_bf16_ref (the same algorithm in CUDA C), both loaded and
 * launched through src/runtime/oxrt.c. rows x cols bf16 in, bf16 out, one
 * warp per row, 256 threads per block. Both outputs are compared bit for
 * bit first; then the kernels run alternately (the order flips every
 * round), each launch timed with CUDA events, median of 31, GB/s over the
 * 2 x rows x cols x 2 bytes read once and written once.
 * usage: bench OXIDEC_MODULE NVCC_MODULE */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUNS 31

static uint32_t rng_state = 0x2545f491u;

static uint16_t rnd_bf16(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	float f = (float)(rng_state % 16001) / 1000.0f - 8.0f;
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return (uint16_t)(u >> 16);
}

static int cmp_float(const void *pa, const void *pb)
{
	float a = *(const float *)pa, b = *(const float *)pb;
	return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
	static const char *const names[2] = {"softmax_bf16", "softmax_bf16_ref"};
	uint32_t rows = 16384, cols = 4096;
	size_t n = (size_t)rows * cols;
	OxModule mod[2];
	OxFunc fn[2];
	float ms[2][RUNS];
	uint16_t *x = malloc(n * 2), *y[2] = {malloc(n * 2), malloc(n * 2)};
	OxDevPtr dx, dy;
	void *args[] = {&dx, &dy, &rows, &cols};
	char name[256];
	OxEvent e0, e1;

	if (argc != 3) {
		fprintf(stderr, "usage: %s OXIDEC_MODULE NVCC_MODULE\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_device_name(name, sizeof name));
	printf("device: %s; softmax_bf16 %ux%u: oxidec %s, nvcc %s\n", name, rows, cols, argv[1], argv[2]);
	for (int k = 0; k < 2; k++) {
		OX_CHECK(ox_module_load(&mod[k], argv[1 + k]));
		OX_CHECK(ox_function(&fn[k], &mod[k], names[k]));
	}
	for (size_t i = 0; i < n; i++)
		x[i] = rnd_bf16();
	OX_CHECK(ox_alloc(&dx, n * 2));
	OX_CHECK(ox_alloc(&dy, n * 2));
	OX_CHECK(ox_copy_to_device(dx, x, n * 2));
	for (int k = 0; k < 2; k++) {
		OX_CHECK(ox_memset8(dy, 0xff, n * 2));
		OX_CHECK(ox_launch_sync(&fn[k], ox_dim(rows / 8, 1, 1), ox_dim(256, 1, 1), 0, args));
		OX_CHECK(ox_copy_from_device(y[k], dy, n * 2));
	}
	size_t diff = 0;
	for (size_t i = 0; i < n; i++)
		diff += y[0][i] != y[1][i];
	printf("%s oxidec vs nvcc: %zu of %zu outputs differ (bit for bit)\n", diff ? "FAIL" : "PASS", diff, n);
	OX_CHECK(ox_event_create(&e0));
	OX_CHECK(ox_event_create(&e1));
	for (int r = -3; r < RUNS; r++)
		for (int i = 0; i < 2; i++) {
			int k = (i + (r & 1)) % 2;
			OX_CHECK(ox_event_record(&e0));
			OX_CHECK(ox_launch(&fn[k], ox_dim(rows / 8, 1, 1), ox_dim(256, 1, 1), 0, args));
			OX_CHECK(ox_event_record(&e1));
			if (r >= 0)
				OX_CHECK(ox_event_elapsed_ms(&ms[k][r], &e0, &e1));
			else
				OX_CHECK(ox_synchronize());
		}
	double med[2];
	for (int k = 0; k < 2; k++) {
		qsort(ms[k], RUNS, sizeof(float), cmp_float);
		med[k] = ms[k][RUNS / 2];
		printf("%-8s median %.4f ms, min %.4f ms, %.1f GB/s\n", k ? "nvcc" : "oxidec", med[k], (double)ms[k][0],
		       2.0 * n * 2 / (med[k] * 1e-3) / 1e9);
	}
	printf("ratio oxidec/nvcc (median time): %.3f\n", med[0] / med[1]);
	return diff != 0;
}
