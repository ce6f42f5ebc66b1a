/* examples/hopper_gemm/host.c: runs hopper_gemm(a_map, b_map: TensorMap,
 * c: *mut f32, m: u32, n: u32, k: u32) (C = A * B^T, bf16 in,
 * f32 accumulate on wgmma, fed by TMA; blocks of 384 threads, 128 x 256
 * tiles, four 48 KiB stages of dynamic shared memory) and checks every
 * element of C against a double-precision CPU product of the same bf16
 * values, with sgemm's bound: |c - ref| <= 2 k FLT_EPSILON sum|a b|.
 * The tensor maps: A as a 2-D tensor of k x m elements (k innermost), box
 * 64 x 128, 128-byte swizzle; B the same with n rows and a box of 64 x
 * 256; both passed by value with the launch (args[i] = &map: grid
 * constants, no copy to device memory). Sizes: 256 x 256 x 128 and
 * 128 x 512 x 64 everywhere, 1024^3 on the GPU.
 * Then hopper_gemm_persistent, the same arguments: clusters of two blocks
 * (its #[kernel(cluster(2, 1, 1))]), one block per multiprocessor
 * (ox_device_attribute), each cluster looping over 256 x 256 tiles, B's
 * map with a box of 64 x 128 (each block multicasts its half). On the GPU
 * 1024^3 (16 tiles: most clusters get none), 3072 x 2048 x 128 (96
 * tiles over the clusters: one or two each) and 256 x 512 x 128 on 2
 * blocks; emulated (one cluster at a time) on grids capped small so that
 * blocks loop over tiles: 256 x 512 x 128 on 2 blocks (2 tiles each, 2
 * k-steps: the producer's ring of 4 stages wraps inside the next tile)
 * and 768 x 512 x 192 on 4 (3 tiles per cluster).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"
#include "../gemm_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STAGES = 4, SHARED = STAGES * 49152 + 1024 + 2 * STAGES * 8 };

/* rows x k bf16 at dev, box 64 x box_rows */
static OxTensorMap tensor_map(const OxFunc *fn, OxDevPtr dev, uint32_t rows, uint32_t k, uint32_t box_rows)
{
	OxTensorMapDesc d = {.global = dev, .rank = 2, .elem_bytes = 2, .dims = {k, rows},
	                     .strides = {(uint64_t)k * 2}, .box = {64, box_rows}, .swizzle = 128};
	OxTensorMap map;
	OX_CHECK(ox_tensor_map_encode(&map, fn, &d));
	return map;
}

/* grid 0: hopper_gemm's grid (a block per 128 x 256 tile); else
 * hopper_gemm_persistent's blocks */
static int check(const OxFunc *fn, uint32_t m, uint32_t n, uint32_t k, unsigned grid)
{
	size_t na = (size_t)m * k, nb = (size_t)n * k, nc = (size_t)m * n;
	uint16_t *a = malloc(na * 2), *b = malloc(nb * 2);
	float *c = malloc(nc * 4);
	OxDevPtr da, db, dc;
	OxTensorMap ma, mb;
	void *args[] = {&ma, &mb, &dc, &m, &n, &k};
	int bad;

	if (a == NULL || b == NULL || c == NULL)
		exit(1);
	for (size_t i = 0; i < na; i++)
		a[i] = rnd_bf16();
	for (size_t i = 0; i < nb; i++)
		b[i] = rnd_bf16();
	OX_CHECK(ox_alloc(&da, na * 2));
	OX_CHECK(ox_alloc(&db, nb * 2));
	OX_CHECK(ox_alloc(&dc, nc * 4));
	OX_CHECK(ox_copy_to_device(da, a, na * 2));
	OX_CHECK(ox_copy_to_device(db, b, nb * 2));
	OX_CHECK(ox_memset32(dc, 0x7fc0deadu, nc));
	ma = tensor_map(fn, da, m, k, 128);
	mb = tensor_map(fn, db, n, k, grid == 0 ? 256 : 128);
	if (grid == 0)
		OX_CHECK(ox_launch_sync(fn, ox_dim(n / 256, m / 128, 1), ox_dim(384, 1, 1), SHARED, args));
	else
		OX_CHECK(ox_launch_sync(fn, ox_dim(grid, 1, 1), ox_dim(384, 1, 1), SHARED, args));
	OX_CHECK(ox_copy_from_device(c, dc, nc * 4));
	if (grid != 0)
		printf("hopper_gemm_persistent on %u blocks, %u tiles:\n", grid, (m / 256) * (n / 256));
	bad = gemm_tn_check(grid == 0 ? "hopper_gemm" : "hopper_gemm_persistent", a, b, c, m, n, k);
	OX_CHECK(ox_free(da));
	OX_CHECK(ox_free(db));
	OX_CHECK(ox_free(dc));
	free(a);
	free(b);
	free(c);
	return bad;
}

int main(int argc, char **argv)
{
	OxModule mod;
	OxFunc fn, pfn;
	int failed = 0, sms, emulated;
	size_t len;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	len = strlen(argv[1]);
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&fn, &mod, "hopper_gemm"));
	OX_CHECK(ox_function(&pfn, &mod, "hopper_gemm_persistent"));
	OX_CHECK(ox_func_set_max_dynamic_shared(&fn, SHARED));
	OX_CHECK(ox_func_set_max_dynamic_shared(&pfn, SHARED));
	OX_CHECK(ox_device_attribute(&sms, OX_DEV_MULTIPROCESSOR_COUNT));
	emulated = len >= 3 && strcmp(argv[1] + len - 3, ".so") == 0;
	failed += check(&fn, 256, 256, 128, 0);
	failed += check(&fn, 128, 512, 64, 0);
	if (!emulated)
		failed += check(&fn, 1024, 1024, 1024, 0);
	failed += check(&pfn, 256, 512, 128, 2);
	if (emulated) {
		failed += check(&pfn, 768, 512, 192, 4);
	} else {
		unsigned grid = sms >= 2 ? (unsigned)sms / 2 * 2 : 2;
		failed += check(&pfn, 1024, 1024, 1024, grid);
		failed += check(&pfn, 3072, 2048, 128, grid);
	}
	return failed != 0;
}
