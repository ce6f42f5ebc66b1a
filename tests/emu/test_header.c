/* tests/emu/test_header.c: typed launches through the header oxidec
 * --emit=header writes for tests/golden/header_abi (header_abi.h, made by
 * tests/emu/run.sh), on that module compiled for host emulation: #[repr(C)]
 * structs by value in memory (.param arrays, one of them 16-byte aligned)
 * and as two scalar parameters, a pointer to a struct, references, an
 * atomic slice, scalars of every C type and a DisjointSlice2D, launched on
 * a stream; each result against the value the Rust code computes.
 * Prints PASS/FAIL lines; exits 1 on a failure.
 * usage: test_header build/emu/header_abi.so */
#include "header_abi.h"

#include <stdio.h>
#include <string.h>

static int failed;

static void check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", what);
	failed |= !ok;
}

static void test_by_value(const OxModule *m, const OxStream *s)
{
	enum { N = 64 };
	OxFunc f;
	OxDevPtr dx, dy, dout;
	uint32_t x[N], out = 0;
	float y[N];
	int ok = 1;

	OX_CHECK(by_value_function(&f, m));
	OX_CHECK(ox_alloc(&dx, sizeof x));
	OX_CHECK(ox_alloc(&dy, sizeof y));
	OX_CHECK(ox_alloc(&dout, 4));
	for (uint32_t i = 0; i < N; i++)
		x[i] = i * 3;
	OX_CHECK(ox_copy_to_device(dx, x, sizeof x));
	Params p = { 5, { 2.0f, { 3, 1, -2 } }, false, 9, OX_DEVICE_PTR(uint32_t, dout) };
	Pair q = { 0.5f, 4 };
	Two t = { 0.25f, 6 };
	OX_CHECK(by_value_launch(&f, ox_dim(2, 1, 1), ox_dim(32, 1, 1), 0, s, p, q, t,
	                         OX_DEVICE_PTR(const uint32_t, dx), N, OX_DEVICE_PTR(float, dy), N));
	OX_CHECK(ox_stream_synchronize(s));
	OX_CHECK(ox_copy_from_device(y, dy, sizeof y));
	OX_CHECK(ox_copy_from_device(&out, dout, 4));
	for (uint32_t i = 0; ok && i < N; i++) {
		float b = (float)p.inner.bias[0] + (float)p.inner.bias[1] - (float)p.inner.bias[2];
		float v = (float)x[i] * p.inner.scale + b + q.lo + (float)q.hi + t.a + (float)t.b;
		ok = y[i] == v + (float)p.n;
	}
	check(ok, "header: #[repr(C)] structs by value (.param arrays, a 16-byte aligned one, two scalars)");
	check(out == 9, "header: a raw pointer member of a struct by value");
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dy));
	OX_CHECK(ox_free(dout));
}

/* pointers(a, b, c, d, counts, e, f, g, h, ch, m) on an 8 x 4 matrix */
static int run_pointers(const OxFunc *f, const OxStream *s, bool g, float *mat, uint32_t *count, uint64_t *b,
                        int64_t *d)
{
	Two two = { 1.5f, 10 };
	uint32_t c = 5, zero = 0;
	int64_t d0 = 41;
	OxDevPtr da, db, dc, dd, dn, dm;

	OX_CHECK(ox_alloc(&da, sizeof two));
	OX_CHECK(ox_alloc(&db, 8));
	OX_CHECK(ox_alloc(&dc, 4));
	OX_CHECK(ox_alloc(&dd, 8));
	OX_CHECK(ox_alloc(&dn, 4));
	OX_CHECK(ox_alloc(&dm, 32 * 4));
	OX_CHECK(ox_copy_to_device(da, &two, sizeof two));
	OX_CHECK(ox_copy_to_device(dc, &c, 4));
	OX_CHECK(ox_copy_to_device(dd, &d0, 8));
	OX_CHECK(ox_copy_to_device(dn, &zero, 4));
	DisjointSlice2D_f32 m = { OX_DEVICE_PTR(float, dm), 4, 8 };
	int rc = pointers_launch(f, ox_dim(1, 1, 1), ox_dim(8, 4, 1), 0, s, OX_DEVICE_PTR(const Two, da),
	                         OX_DEVICE_PTR(uint64_t, db), OX_DEVICE_PTR(const uint32_t, dc),
	                         OX_DEVICE_PTR(int64_t, dd), OX_DEVICE_PTR(uint32_t, dn), 1, 3, -2, g, 0.5, 'A', m);
	if (rc == 0)
		rc = ox_stream_synchronize(s);
	OX_CHECK(ox_copy_from_device(mat, dm, 32 * 4));
	OX_CHECK(ox_copy_from_device(count, dn, 4));
	OX_CHECK(ox_copy_from_device(b, db, 8));
	OX_CHECK(ox_copy_from_device(d, dd, 8));
	OxDevPtr all[] = { da, db, dc, dd, dn, dm };
	for (int i = 0; i < 6; i++)
		OX_CHECK(ox_free(all[i]));
	return rc;
}

static void test_pointers(const OxModule *m, const OxStream *s)
{
	OxFunc f;
	float mat[32];
	uint32_t count = 0;
	uint64_t b = 0;
	int64_t d = 0;

	OX_CHECK(pointers_function(&f, m));
	for (int g = 1; g >= 0; g--) {
		int ok = run_pointers(&f, s, g, mat, &count, &b, &d) == 0;
		float want = 1.5f + 3.0f + -2.0f + (g ? 0.5f : (float)'A');
		for (int i = 0; ok && i < 32; i++)
			ok = mat[i] == want;
		check(ok && count == 32 * 15 && b == 7 && d == 42,
		      g ? "header: pointers, references, an atomic slice, scalars, a DisjointSlice2D (g = true)"
		        : "header: the same with g = false (the char)");
	}
}

int main(int argc, char **argv)
{
	OxModule m;
	OxStream s;

	if (argc != 2) {
		fprintf(stderr, "usage: %s header_abi.so\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&m, argv[1]));
	OX_CHECK(ox_stream_create(&s));
	test_by_value(&m, &s);
	test_pointers(&m, &s);
	OX_CHECK(ox_stream_destroy(&s));
	ox_module_unload(&m);
	ox_shutdown();
	return failed;
}
