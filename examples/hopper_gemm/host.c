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

static int check(const OxFunc *fn, uint32_t m, uint32_t n, uint32_t k)
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
	mb = tensor_map(fn, db, n, k, 256);
	OX_CHECK(ox_launch_sync(fn, ox_dim(n / 256, m / 128, 1), ox_dim(384, 1, 1), SHARED, args));
	OX_CHECK(ox_copy_from_device(c, dc, nc * 4));
	bad = gemm_tn_check("hopper_gemm", a, b, c, m, n, k);
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
	OxFunc fn;
	int failed = 0;
	size_t len;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	len = strlen(argv[1]);
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&fn, &mod, "hopper_gemm"));
	OX_CHECK(ox_func_set_max_dynamic_shared(&fn, SHARED));
	failed += check(&fn, 256, 256, 128);
	failed += check(&fn, 128, 512, 64);
	if (len < 3 || strcmp(argv[1] + len - 3, ".so") != 0)
		failed += check(&fn, 1024, 1024, 1024);
	return failed != 0;
}
