/* tests/gpu/half/host.c: on the GPU (the kernels of lib.rs, compiled by
 * oxidec), each result compared with the emulator's function
 * (src/runtime/oxemu_half.c, linked in):
 *   all 2^32 f32 values through cvt.rn.bf16.f32 and cvt.rn.f16.f32, all
 *   2^16 f16 values through cvt.f32.f16;
 *   HALF_OPS triples (default 2^26; random bits, a quarter of the operands
 *   specials: zeros, subnormals, the largest finite, infinities, NaNs)
 *   through fma/add/mul.rn of bf16, f16, bf16x2, f16x2;
 *   all 2^32 f32 values, in both places of a pair, through
 *   cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 and cvt.rn.{bf16x2,f16x2}.f32;
 *   all 2^16 fp8 pairs through cvt.rn.f16x2.{e4m3x2,e5m2x2}.
 * Prints one PASS/FAIL line per instruction with the first differences,
 * and "N passed, M failed".
 * usage: host MODULE.ptx|MODULE.cubin (or an emulated .so: HALF_CHUNK
 * makes the f32 sweeps' chunks smaller, HALF_F32 stops them early) */
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

/* ---- arithmetic: HALF_OPS random triples ---- */

static const uint16_t SPECIAL[] = {
	0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x0080, 0x007f, 0x7bff, 0xfbff,
	0x7c00, 0xfc00, 0x7e00, 0x7d01, 0xffff, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x7f81,
	0x3c00, 0xbc00, 0x3f80, 0xbf80, 0x3555, 0x3eab,
};

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* triple i: three 16-bit operands, each a special with probability 1/4 */
static uint64_t triple(uint64_t i)
{
	uint64_t s = i * 0x2545f4914f6cdd1dull, r = rng_next(&s), k = rng_next(&s), q = 0;
	for (int j = 0; j < 3; j++) {
		uint64_t h = (k >> (16 * j)) & 0xffff;
		uint64_t v = (h & 3) == 0 ? SPECIAL[(h >> 2) % (sizeof SPECIAL / sizeof SPECIAL[0])] : (r >> (16 * j)) & 0xffff;
		q |= v << (16 * j);
	}
	return q;
}

static const char *const OP_NAME[9][2] = {
	{"fma.rn.bf16", "add.rn.bf16"}, {"mul.rn.bf16", "fma.rn.f16"}, {"add.rn.f16", "mul.rn.f16"},
	{"fma.rn.bf16x2", NULL}, {"add.rn.bf16x2", NULL}, {"mul.rn.bf16x2", NULL},
	{"fma.rn.f16x2", NULL}, {"add.rn.f16x2", NULL}, {"mul.rn.f16x2", NULL},
};

/* the emulator's 9 words for triple q, as the kernel half_ops packs them */
static void ops_expect(uint64_t q, uint32_t e[9])
{
	unsigned a = q & 0xffff, b = (q >> 16) & 0xffff, c = (q >> 32) & 0xffff;
	unsigned pa = a | b << 16, pb = b | c << 16, pc = c | a << 16;
	e[0] = __oxide_host_fma_rn_bf16(a, b, c) | (uint32_t)__oxide_host_add_rn_bf16(a, b) << 16;
	e[1] = __oxide_host_mul_rn_bf16(a, b) | (uint32_t)__oxide_host_fma_rn_f16(a, b, c) << 16;
	e[2] = __oxide_host_add_rn_f16(a, b) | (uint32_t)__oxide_host_mul_rn_f16(a, b) << 16;
	e[3] = __oxide_host_fma_rn_bf16x2(pa, pb, pc);
	e[4] = __oxide_host_add_rn_bf16x2(pa, pb);
	e[5] = __oxide_host_mul_rn_bf16x2(pa, pb);
	e[6] = __oxide_host_fma_rn_f16x2(pa, pb, pc);
	e[7] = __oxide_host_add_rn_f16x2(pa, pb);
	e[8] = __oxide_host_mul_rn_f16x2(pa, pb);
}

static void half_ops(const OxFunc *fn, uint64_t total, uint64_t chunk)
{
	uint64_t *in = malloc(chunk * 8), len = chunk;
	uint32_t *out = malloc(chunk * 36);
	unsigned long long bad[9][2] = {{0}};
	OxDevPtr din, dout;

	if (in == NULL || out == NULL)
		exit(1);
	OX_CHECK(ox_alloc(&din, chunk * 8));
	OX_CHECK(ox_alloc(&dout, chunk * 36));
	for (uint64_t base = 0; base < total; base += chunk) {
#pragma omp parallel for
		for (uint64_t i = 0; i < chunk; i++)
			in[i] = triple(base + i);
		OX_CHECK(ox_copy_to_device(din, in, chunk * 8));
		void *args[] = {&din, &len, &dout, &len};
		OX_CHECK(ox_launch_sync(fn, ox_dim((unsigned)((chunk + 255) / 256), 1, 1), ox_dim(256, 1, 1), 0, args));
		OX_CHECK(ox_copy_from_device(out, dout, chunk * 36));
#pragma omp parallel for
		for (uint64_t i = 0; i < chunk; i++) {
			uint32_t e[9];
			ops_expect(in[i], e);
			for (int k = 0; k < 9; k++)
				for (int h = 0; h < 2; h++) {
					uint32_t m = OP_NAME[k][1] ? 0xffffu << (16 * h) : (h ? 0 : 0xffffffffu);
					if (((out[i * 9 + k] ^ e[k]) & m) == 0)
						continue;
					unsigned long long n;
#pragma omp atomic capture
					n = bad[k][h]++;
					if (n < 4)
#pragma omp critical
						printf("  %s(0x%012llx): GPU 0x%08x, emulator 0x%08x\n", OP_NAME[k][h],
						       (unsigned long long)in[i], out[i * 9 + k], e[k]);
				}
		}
	}
	for (int k = 0; k < 9; k++)
		for (int h = 0; h < 2; h++)
			if (OP_NAME[k][h])
				verdict(OP_NAME[k][h], bad[k][h], total);
	OX_CHECK(ox_free(din));
	OX_CHECK(ox_free(dout));
	free(in);
	free(out);
}

/* ---- f32 pairs -> fp8, bf16x2, f16x2: every f32 in both places ---- */

static void pairs_from_f32(const OxFunc *fn, uint64_t total, uint64_t chunk)
{
	uint32_t *out = malloc(chunk * 12);
	OxDevPtr d;
	uint64_t len = chunk;
	static const char *const name[4] = {"cvt.rn.satfinite.e4m3x2.f32", "cvt.rn.satfinite.e5m2x2.f32",
					    "cvt.rn.bf16x2.f32", "cvt.rn.f16x2.f32"};
	unsigned long long bad[4] = {0};

	if (out == NULL)
		exit(1);
	OX_CHECK(ox_alloc(&d, chunk * 12));
	for (uint64_t base = 0; base < total; base += chunk) {
		uint32_t b32 = (uint32_t)base;
		void *args[] = {&b32, &d, &len};
		OX_CHECK(ox_launch_sync(fn, ox_dim((unsigned)(chunk / 256), 1, 1), ox_dim(256, 1, 1), 0, args));
		OX_CHECK(ox_copy_from_device(out, d, chunk * 12));
#pragma omp parallel for
		for (uint64_t i = 0; i < chunk; i++) {
			uint32_t hb = b32 + (uint32_t)i, lb = hb * 0x9e3779b1u, e[4], g[4];
			float hi, lo;
			memcpy(&hi, &hb, 4);
			memcpy(&lo, &lb, 4);
			e[0] = __oxide_host_cvt_rn_satfinite_e4m3x2_f32(hi, lo);
			e[1] = __oxide_host_cvt_rn_satfinite_e5m2x2_f32(hi, lo);
			e[2] = __oxide_host_cvt_rn_bf16x2_f32(hi, lo);
			e[3] = __oxide_host_cvt_rn_f16x2_f32(hi, lo);
			g[0] = out[i * 3] & 0xffff;
			g[1] = out[i * 3] >> 16;
			g[2] = out[i * 3 + 1];
			g[3] = out[i * 3 + 2];
			for (int k = 0; k < 4; k++) {
				if (g[k] == e[k])
					continue;
				unsigned long long n;
#pragma omp atomic capture
				n = bad[k]++;
				if (n < 4)
#pragma omp critical
					printf("  %s(0x%08x, 0x%08x): GPU 0x%08x, emulator 0x%08x\n", name[k], hb, lb, g[k], e[k]);
			}
		}
	}
	for (int k = 0; k < 4; k++)
		verdict(name[k], bad[k], total);
	OX_CHECK(ox_free(d));
	free(out);
}

/* ---- every fp8 pair -> f16x2 ---- */

static void fp8_to_f16x2(const OxFunc *fn)
{
	uint32_t *out = malloc(65536 * 8);
	OxDevPtr d;
	uint64_t len = 65536;
	void *args[] = {&d, &len};
	unsigned long long bad4 = 0, bad5 = 0;

	OX_CHECK(ox_alloc(&d, 65536 * 8));
	OX_CHECK(ox_launch_sync(fn, ox_dim(256, 1, 1), ox_dim(256, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(out, d, 65536 * 8));
	for (uint32_t i = 0; i < 65536; i++) {
		uint32_t e4 = __oxide_host_cvt_rn_f16x2_e4m3x2((unsigned short)i);
		uint32_t e5 = __oxide_host_cvt_rn_f16x2_e5m2x2((unsigned short)i);
		if (out[2 * i] != e4 && bad4++ < 4)
			printf("  cvt.rn.f16x2.e4m3x2(0x%04x): GPU 0x%08x, emulator 0x%08x\n", i, out[2 * i], e4);
		if (out[2 * i + 1] != e5 && bad5++ < 4)
			printf("  cvt.rn.f16x2.e5m2x2(0x%04x): GPU 0x%08x, emulator 0x%08x\n", i, out[2 * i + 1], e5);
	}
	verdict("cvt.rn.f16x2.e4m3x2", bad4, 65536);
	verdict("cvt.rn.f16x2.e5m2x2", bad5, 65536);
	OX_CHECK(ox_free(d));
	free(out);
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
	const char *s = getenv(name);
	return s && *s ? strtoull(s, NULL, 0) : dflt;
}

int main(int argc, char **argv)
{
	OxModule mod;
	OxFunc f1, f2, f3, f4, f5;
	uint64_t chunk = env_u64("HALF_CHUNK", 1ull << 26), f32s = env_u64("HALF_F32", 1ull << 32);

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&f1, &mod, "half_from_f32"));
	OX_CHECK(ox_function(&f2, &mod, "half_to_f32"));
	OX_CHECK(ox_function(&f3, &mod, "half_ops"));
	OX_CHECK(ox_function(&f4, &mod, "pairs_from_f32"));
	OX_CHECK(ox_function(&f5, &mod, "fp8_to_f16x2"));
	if (!getenv("HALF_SKIP_CVT")) {
		from_f32(&f1);
		to_f32(&f2);
	}
	half_ops(&f3, env_u64("HALF_OPS", 1ull << 26), chunk);
	pairs_from_f32(&f4, f32s, chunk);
	fp8_to_f16x2(&f5);
	printf("%d passed, %d failed\n", pass, fail);
	return fail != 0;
}
