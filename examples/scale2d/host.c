/* examples/scale2d/host.c: runs scale2d(m: &[f32], s: f32,
 * out: DisjointSlice2D<f32>) on a rows x cols matrix with 16x16 blocks and
 * checks every element bit-exactly against ((m*s) + r) - c rounded after
 * each operation, as Rust defines it (build with -ffp-contract=off).
 * The launch is typed: scale2d.h (oxidec --emit=header; -iquote build/examples
 * -iquote src/runtime) declares scale2d_launch(..., const float *m, size_t
 * m_len, float s, DisjointSlice2D_f32 out), the last the C struct of
 * #[repr(C)] DisjointSlice2D<f32> {ptr, rows, cols} (one 24-byte PTX
 * parameter), its layout checked against rustc's by the header.
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "scale2d.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 300, COLS = 517, BLOCK = 16 };

static float expected(float m, float s, size_t r, size_t c)
{
	volatile float p = m * s;
	volatile float q = p + (float)r;
	return q - (float)c;
}

int main(int argc, char **argv)
{
	size_t n = (size_t)ROWS * COLS, bad = 0;
	float *m = malloc(n * sizeof *m), *out = malloc(n * sizeof *out), s = 1.7f;
	OxModule mod;
	OxFunc fn;
	OxDevPtr dm, dout;

	if (argc != 2 || !m || !out) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < n; i++)
		m[i] = (float)((i * 2654435761u) % 10007) / 97.0f - 40.0f;
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(scale2d_function(&fn, &mod));
	OX_CHECK(ox_alloc(&dm, n * sizeof *m));
	OX_CHECK(ox_alloc(&dout, n * sizeof *out));
	OX_CHECK(ox_copy_to_device(dm, m, n * sizeof *m));
	OX_CHECK(ox_memset8(dout, 0xff, n * sizeof *out));   /* NaN poison */
	DisjointSlice2D_f32 view = { OX_DEVICE_PTR(float, dout), ROWS, COLS };
	OxDim3 grid = ox_dim((COLS + BLOCK - 1) / BLOCK, (ROWS + BLOCK - 1) / BLOCK, 1);
	OX_CHECK(scale2d_launch(&fn, grid, ox_dim(BLOCK, BLOCK, 1), 0, NULL, OX_DEVICE_PTR(const float, dm), n, s, view));
	OX_CHECK(ox_synchronize());
	OX_CHECK(ox_copy_from_device(out, dout, n * sizeof *out));
	for (size_t r = 0; r < ROWS; r++)
		for (size_t c = 0; c < COLS; c++) {
			float want = expected(m[r * COLS + c], s, r, c), got = out[r * COLS + c];
			if (memcmp(&want, &got, sizeof got) && bad++ < 5)
				printf("FAIL scale2d: [%zu][%zu] = %a, expected %a\n", r, c, got, want);
		}
	printf("%s scale2d: %zu/%zu elements bit-exact (%dx%d, 16x16 blocks)\n", bad ? "FAIL" : "PASS",
	       n - bad, n, ROWS, COLS);
	OX_CHECK(ox_free(dm));
	OX_CHECK(ox_free(dout));
	free(m);
	free(out);
	return bad != 0;
}
