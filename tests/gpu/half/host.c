/* tests/gpu/half/host.c: all 2^32 f32 values through cvt.rn.bf16.f32 and
 * cvt.rn.f16.f32, and all 2^16 f16 values through cvt.f32.f16, on the GPU
 * (the kernels of lib.rs, compiled by oxidec), each result compared with
 * the emulator's function (src/runtime/oxemu.c, linked in). Prints one
 * PASS/FAIL line per conversion with the first differences, and
 * "N passed, M failed".
 * usage: host MODULE.ptx|MODULE.cubin */
#include "../../../src/runtime/oxrt.h"
#include "../../../src/runtime/oxide_host_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 1 << 28 };

static int pass, fail;

static void verdict(const char *what, unsigned long long bad, unsigned long long n)
{
	if (bad == 0) {
		printf("PASS %s: %llu values, all equal to the emulator's\n", what, n);
		pass++;
	} else {
		printf("FAIL %s: %llu of %llu values differ from the emulator's\n", what, bad, n);
		fail++;
	}
}

static void from_f32(const OxFunc *fn)
{
	uint16_t *bf = malloc(CHUNK * 2ull), *h = malloc(CHUNK * 2ull);
	OxDevPtr dbf, dh;
	uint64_t len = CHUNK;
	unsigned long long badb = 0, badh = 0;

	if (bf == NULL || h == NULL)
		exit(1);
	OX_CHECK(ox_alloc(&dbf, CHUNK * 2ull));
	OX_CHECK(ox_alloc(&dh, CHUNK * 2ull));
	for (uint64_t base = 0; base < (1ull << 32); base += CHUNK) {
		uint32_t b32 = (uint32_t)base;
		void *args[] = {&b32, &dbf, &len, &dh, &len};
		OX_CHECK(ox_launch_sync(fn, ox_dim(CHUNK / 256, 1, 1), ox_dim(256, 1, 1), 0, args));
		OX_CHECK(ox_copy_from_device(bf, dbf, CHUNK * 2ull));
		OX_CHECK(ox_copy_from_device(h, dh, CHUNK * 2ull));
#pragma omp parallel for reduction(+ : badb, badh)
		for (uint32_t i = 0; i < CHUNK; i++) {
			uint32_t u = b32 + i;
			float x;
			memcpy(&x, &u, 4);
			uint16_t eb = __oxide_host_cvt_rn_bf16_f32(x), eh = __oxide_host_cvt_rn_f16_f32(x);
			if (bf[i] != eb && badb++ < 4)
				printf("  bf16(0x%08x): GPU 0x%04x, emulator 0x%04x\n", u, bf[i], eb);
			if (h[i] != eh && badh++ < 4)
				printf("  f16(0x%08x): GPU 0x%04x, emulator 0x%04x\n", u, h[i], eh);
		}
	}
	verdict("cvt.rn.bf16.f32", badb, 1ull << 32);
	verdict("cvt.rn.f16.f32", badh, 1ull << 32);
	OX_CHECK(ox_free(dbf));
	OX_CHECK(ox_free(dh));
	free(bf);
	free(h);
}

static void to_f32(const OxFunc *fn)
{
	uint32_t *out = malloc(65536 * 4);
	OxDevPtr d;
	uint64_t len = 65536;
	void *args[] = {&d, &len};
	unsigned long long bad = 0;

	OX_CHECK(ox_alloc(&d, 65536 * 4));
	OX_CHECK(ox_launch_sync(fn, ox_dim(256, 1, 1), ox_dim(256, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(out, d, 65536 * 4));
	for (uint32_t i = 0; i < 65536; i++) {
		float e = __oxide_host_cvt_f32_f16((unsigned short)i);
		uint32_t eu;
		memcpy(&eu, &e, 4);
		if (out[i] != eu && bad++ < 4)
			printf("  f32(f16 0x%04x): GPU 0x%08x, emulator 0x%08x\n", i, out[i], eu);
	}
	verdict("cvt.f32.f16", bad, 65536);
	OX_CHECK(ox_free(d));
	free(out);
}

int main(int argc, char **argv)
{
	OxModule mod;
	OxFunc f1, f2;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&f1, &mod, "half_from_f32"));
	OX_CHECK(ox_function(&f2, &mod, "half_to_f32"));
	from_f32(&f1);
	to_f32(&f2);
	printf("%d passed, %d failed\n", pass, fail);
	return fail != 0;
}
