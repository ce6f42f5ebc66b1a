/* examples/scale2d/host.c: runs scale2d(m: &[f32], s: f32,
 * out: DisjointSlice2D<f32>) on a rows x cols matrix with 16x16 blocks and
 * checks every element bit-exactly against ((m*s) + r) - c rounded after
 * each operation, as Rust defines it (build with -ffp-contract=off).
 * PTX parameters: m_ptr, m_len (64-bit), s (f32), out: one 24-byte
 * parameter {data pointer, rows, cols} (DisjointSlice2D is #[repr(C)]).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 300, COLS = 517, BLOCK = 16 };

typedef struct {                 /* DisjointSlice2D<f32>, #[repr(C)] */
	OxDevPtr data;
	uint64_t rows, cols;
} View2D;

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
	OX_CHECK(ox_function(&fn, &mod, "scale2d"));
	OX_CHECK(ox_alloc(&dm, n * sizeof *m));
	OX_CHECK(ox_alloc(&dout, n * sizeof *out));
	OX_CHECK(ox_copy_to_device(dm, m, n * sizeof *m));
	OX_CHECK(ox_memset8(dout, 0xff, n * sizeof *out));   /* NaN poison */
	uint64_t mlen = n;
	View2D view = { dout, ROWS, COLS };
	void *args[] = { &dm, &mlen, &s, &view };
	OxDim3 grid = ox_dim((COLS + BLOCK - 1) / BLOCK, (ROWS + BLOCK - 1) / BLOCK, 1);
	OX_CHECK(ox_launch_sync(&fn, grid, ox_dim(BLOCK, BLOCK, 1), 0, args));
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
