/* tests/golden/saxpy.reject.c: the header of saxpy (`saxpy(a: f32, x:
 * &[f32], y: DisjointSlice<f32>)`) makes the C compiler check a launch's
 * element types: with OX_RIGHT_TYPES this compiles; without it x is a
 * `const uint32_t *` where the header wants `const float *`, which
 * `cc -Werror` rejects (run.sh checks both). */
#include "saxpy.h"

int launch(const OxFunc *f, OxDevPtr dx, OxDevPtr dy, size_t n);

int launch(const OxFunc *f, OxDevPtr dx, OxDevPtr dy, size_t n)
{
#ifdef OX_RIGHT_TYPES
	const float *x = OX_DEVICE_PTR(const float, dx);
#else
	const uint32_t *x = OX_DEVICE_PTR(const uint32_t, dx);
#endif
	return saxpy_launch(f, ox_dim(ox_blocks_for(n, 256), 1, 1), ox_dim(256, 1, 1), 0, NULL, 2.0f, x, n,
	                    OX_DEVICE_PTR(float, dy), n);
}
