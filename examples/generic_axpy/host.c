/* examples/generic_axpy/host.c: one generic kernel, four instances.
 *   #[kernel(instances(f32, f64, u32, i64), launch_bounds(max_threads = 256))]
 *   pub fn axpy<T: Elem>(a: T, x: &[T], y: DisjointSlice<T>)
 * is the entries axpy_f32, axpy_f64, axpy_u32 and axpy_i64 (no entry
 * `axpy`). Each is launched by name and y = a*x + y checked bit-exactly
 * (wrapping for the integers).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 10007u

/* check_T(mod, entry, a): x[i], y[i] from i; want = a*x + y in C */
#define CHECK(T, NAME, A, XI, YI)                                                           \
	static int check_##NAME(const OxModule *mod)                                        \
	{                                                                                   \
		static T x[N], y[N], got[N], want[N];                                       \
		T a = (A);                                                                  \
		uint64_t n = N;                                                             \
		OxDevPtr dx, dy;                                                            \
		void *args[] = {&a, &dx, &n, &dy, &n};                                      \
		OxFunc fn;                                                                  \
		size_t bad = 0;                                                             \
                                                                                            \
		for (size_t i = 0; i < N; i++) {                                            \
			x[i] = (XI);                                                        \
			y[i] = (YI);                                                        \
			want[i] = a * x[i] + y[i];                                          \
		}                                                                           \
		OX_CHECK(ox_function(&fn, mod, #NAME));                                     \
		OX_CHECK(ox_alloc(&dx, sizeof x));                                          \
		OX_CHECK(ox_alloc(&dy, sizeof y));                                          \
		OX_CHECK(ox_copy_to_device(dx, x, sizeof x));                               \
		OX_CHECK(ox_copy_to_device(dy, y, sizeof y));                               \
		OX_CHECK(ox_launch_sync(&fn, ox_dim(ox_blocks_for(N, 256), 1, 1),           \
		                        ox_dim(256, 1, 1), 0, args));                       \
		OX_CHECK(ox_copy_from_device(got, dy, sizeof got));                         \
		for (size_t i = 0; i < N; i++)                                              \
			if (memcmp(&got[i], &want[i], sizeof(T)) != 0 && bad++ < 5)         \
				printf("  y[%zu] differs\n", i);                            \
		printf("%s " #NAME ": %zu of %u elements differ\n", bad ? "FAIL" : "PASS",  \
		       bad, N);                                                             \
		OX_CHECK(ox_free(dx));                                                      \
		OX_CHECK(ox_free(dy));                                                      \
		return bad != 0;                                                            \
	}

CHECK(float, axpy_f32, 1.5f, (float)(i % 977) * 0.25f - 100.0f, (float)(i % 13) - 6.0f)
CHECK(double, axpy_f64, 1.0 / 3.0, (double)(i % 977) * 0.1 - 50.0, (double)(i % 13) - 6.5)
CHECK(uint32_t, axpy_u32, 0x9E3779B9u, (uint32_t)i * 2654435761u, (uint32_t)i ^ 0xA5A5u)
CHECK(int64_t, axpy_i64, -7, (int64_t)i * -123456789, (int64_t)i - 5000)

int main(int argc, char **argv)
{
	OxModule mod;
	OxFunc fn;
	int failed = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE.ptx|MODULE.cubin|MODULE.so\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	failed += check_axpy_f32(&mod);
	failed += check_axpy_f64(&mod);
	failed += check_axpy_u32(&mod);
	failed += check_axpy_i64(&mod);
	/* the generic function itself is no entry; not asked under
	 * compute-sanitizer (OX_SKIP_TRAP_TEST, tests/gpu/sanitize.sh), which
	 * counts the driver's "named symbol not found" as an error */
	if (getenv("OX_SKIP_TRAP_TEST")) {
		printf("PASS axpy: (OX_SKIP_TRAP_TEST: the generic function's own name is not looked up)\n");
	} else if (ox_function(&fn, &mod, "axpy") == 0) {
		printf("FAIL axpy: the generic function is an entry\n");
		failed++;
	} else {
		printf("PASS axpy: no entry of the generic function's own name\n");
	}
	return failed != 0;
}
