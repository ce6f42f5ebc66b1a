/* examples/vector_scale/host.c: runs the three kernels of vector_scale
 * (scale_f32x4, copy_bf16x8, add_f64x2: vector views of slices) on
 * lengths that leave a tail after the whole vectors, and checks every
 * element exactly; then once more with the input one element past a
 * 16-byte boundary, where the view is refused and nothing may be written.
 * The launches are typed, through vector_scale.h (oxidec --emit=header;
 * -iquote build/examples -iquote src/runtime): one launcher per kernel.
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "vector_scale.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void verdict(int ok, const char *what, size_t n)
{
	printf("%s %s, n = %zu\n", ok ? "PASS" : "FAIL", what, n);
	failures += !ok;
}

static OxDim3 grid_for(size_t n, size_t lanes)
{
	return ox_dim((unsigned)((n / lanes + lanes + 255) / 256), 1, 1);
}

/* y = 2.5 x, f32; skew: elements x and y start past their buffers' (256-byte aligned) starts */
static void scale(const OxModule *mod, size_t n, size_t skew)
{
	OxFunc fn;
	float *x = malloc(4 * (n + 1)), *y = malloc(4 * (n + 1)), s = 2.5f;
	OxDevPtr dx, dy, px, py;
	size_t bad = 0;

	for (size_t i = 0; i < n + 1; i++)
		x[i] = (float)(i % 1000) * 0.37f - 100.0f;
	OX_CHECK(scale_f32x4_function(&fn, mod));
	OX_CHECK(ox_alloc(&dx, 4 * (n + 1)));
	OX_CHECK(ox_alloc(&dy, 4 * (n + 1)));
	OX_CHECK(ox_copy_to_device(dx, x, 4 * (n + 1)));
	OX_CHECK(ox_memset8(dy, 0xff, 4 * (n + 1)));
	px = dx + 4 * skew, py = dy + 4 * skew;
	OX_CHECK(scale_f32x4_launch(&fn, grid_for(n, 4), ox_dim(256, 1, 1), 0, NULL, OX_DEVICE_PTR(const float, px), n,
	                            OX_DEVICE_PTR(float, py), n, s));
	OX_CHECK(ox_synchronize());
	OX_CHECK(ox_copy_from_device(y, dy, 4 * (n + 1)));
	for (size_t i = 0; i < n; i++) {
		float want = skew ? y[i + skew] : x[i] * s, got = y[i + skew];
		uint32_t gu, ff = 0xffffffffu;
		memcpy(&gu, &got, 4);
		if (skew ? gu != ff : got != want)
			bad++;
	}
	verdict(bad == 0, skew ? "scale_f32x4 misaligned: nothing written" : "scale_f32x4: y = 2.5 x, every element", n);
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dy));
	free(x), free(y);
}

static void copy16(const OxModule *mod, size_t n, size_t skew)
{
	OxFunc fn;
	uint16_t *x = malloc(2 * (n + 1)), *y = malloc(2 * (n + 1));
	OxDevPtr dx, dy, px, py;
	size_t bad = 0;

	for (size_t i = 0; i < n + 1; i++)
		x[i] = (uint16_t)(i * 2654435761u >> 7);
	OX_CHECK(copy_bf16x8_function(&fn, mod));
	OX_CHECK(ox_alloc(&dx, 2 * (n + 1)));
	OX_CHECK(ox_alloc(&dy, 2 * (n + 1)));
	OX_CHECK(ox_copy_to_device(dx, x, 2 * (n + 1)));
	OX_CHECK(ox_memset8(dy, 0xff, 2 * (n + 1)));
	px = dx + 2 * skew, py = dy + 2 * skew;
	OX_CHECK(copy_bf16x8_launch(&fn, grid_for(n, 8), ox_dim(256, 1, 1), 0, NULL, OX_DEVICE_PTR(const uint16_t, px), n,
	                            OX_DEVICE_PTR(uint16_t, py), n));
	OX_CHECK(ox_synchronize());
	OX_CHECK(ox_copy_from_device(y, dy, 2 * (n + 1)));
	for (size_t i = 0; i < n; i++)
		if (y[i + skew] != (skew ? 0xffff : x[i]))
			bad++;
	verdict(bad == 0, skew ? "copy_bf16x8 misaligned: nothing written" : "copy_bf16x8: y = x, every element", n);
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dy));
	free(x), free(y);
}

static void add64(const OxModule *mod, size_t n)
{
	OxFunc fn;
	double *x = malloc(8 * n), *y = malloc(8 * n), *z = malloc(8 * n);
	OxDevPtr dx, dy, dz;
	size_t bad = 0;

	for (size_t i = 0; i < n; i++)
		x[i] = (double)i / 3.0, y[i] = 1e10 - (double)i * 7.25;
	OX_CHECK(add_f64x2_function(&fn, mod));
	OX_CHECK(ox_alloc(&dx, 8 * n));
	OX_CHECK(ox_alloc(&dy, 8 * n));
	OX_CHECK(ox_alloc(&dz, 8 * n));
	OX_CHECK(ox_copy_to_device(dx, x, 8 * n));
	OX_CHECK(ox_copy_to_device(dy, y, 8 * n));
	OX_CHECK(add_f64x2_launch(&fn, grid_for(n, 2), ox_dim(256, 1, 1), 0, NULL, OX_DEVICE_PTR(const double, dx), n,
	                          OX_DEVICE_PTR(const double, dy), n, OX_DEVICE_PTR(double, dz), n));
	OX_CHECK(ox_synchronize());
	OX_CHECK(ox_copy_from_device(z, dz, 8 * n));
	for (size_t i = 0; i < n; i++)
		if (z[i] != x[i] + y[i])
			bad++;
	verdict(bad == 0, "add_f64x2: z = x + y, every element", n);
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dy));
	OX_CHECK(ox_free(dz));
	free(x), free(y), free(z);
}

int main(int argc, char **argv)
{
	OxModule mod;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	scale(&mod, 4099, 0);
	scale(&mod, 4099, 1);
	copy16(&mod, 8195, 0);
	copy16(&mod, 8195, 1);
	add64(&mod, 3001);
	return failures != 0;
}
