/* examples/tiles/host.c: runs the kernels of src/lib.rs and checks every
 * element, the partial chunk and tiles at the edges included, and that
 * nothing past the end of an output is written (a poisoned guard):
 *   chunks(x: &[f32], y: DisjointSlice<f32>)  1000 elements = 333 chunks
 *       of 3 and a partial one of 1, 1024 threads (as for unchecked);
 *   tiles(m: DisjointSlice2D<f32>)  a 30 x 17 matrix in 4 x 3 tiles (8 x 6
 *       tiles, the last row and column of tiles cut), 8 x 8 blocks;
 *   split_tiles(m: DisjointSlice2D<f32>)  the same 30 x 17 matrix in 2 x 2
 *       pieces of 2 x 3 a block apart (tile_split_mut::<2, 3, 2, 2>), 2 x 3
 *       blocks of 2 x 3 threads: every element written once, by the piece
 *       the formula names, edge pieces cut or absent;
 *   unchecked(x: &[f32], y: DisjointSlice<f32>)  1000 elements.
 * PTX parameters: a slice is (pointer, length); DisjointSlice2D one
 * 24-byte {pointer, rows, cols}.
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 1000, GUARD = 16, ROWS = 30, COLS = 17 };

typedef struct {                 /* DisjointSlice2D<f32>, #[repr(C)] */
	OxDevPtr data;
	uint64_t rows, cols;
} View2D;

static OxModule mod;
static int failures;

static void launch(const char *name, OxDim3 grid, OxDim3 block, void **args)
{
	OxFunc fn;
	OX_CHECK(ox_function(&fn, &mod, name));
	OX_CHECK(ox_launch_sync(&fn, grid, block, 0, args));
}

static void verdict(const char *name, size_t bad, size_t n)
{
	printf("%s %s: %zu/%zu elements as expected (guard of %d untouched)\n", bad ? "FAIL" : "PASS", name, n - bad, n,
	       GUARD);
	failures += bad != 0;
}

static int poisoned(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u == 0xffffffffu;
}

/* runs a 1-D kernel of (x, y) over N elements into y with a guard */
static void run_1d(const char *name, const float *x, float *y)
{
	OxDevPtr dx, dy;
	OX_CHECK(ox_alloc(&dx, N * sizeof(float)));
	OX_CHECK(ox_alloc(&dy, (N + GUARD) * sizeof(float)));
	OX_CHECK(ox_copy_to_device(dx, x, N * sizeof(float)));
	OX_CHECK(ox_memset8(dy, 0xff, (N + GUARD) * sizeof(float)));
	uint64_t n = N;
	void *args[] = {&dx, &n, &dy, &n};
	launch(name, ox_dim(4, 1, 1), ox_dim(256, 1, 1), args);
	OX_CHECK(ox_copy_from_device(y, dy, (N + GUARD) * sizeof(float)));
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dy));
}

static void test_chunks(const float *x)
{
	float y[N + GUARD];
	size_t bad = 0;
	run_1d("chunks", x, y);
	for (int i = 0; i < N + GUARD; i++) {
		float want = i < 999 ? 2.0f * x[i] : 2.0f * x[i % N] + 1000.0f;
		int ok = i < N ? y[i] == want : poisoned(y[i]);
		if (!ok && bad++ < 5)
			printf("FAIL chunks: y[%d] = %a, expected %a\n", i, y[i], i < N ? want : 0.0f);
	}
	verdict("chunks (chunk_mut::<3>, the last through chunk_partial_mut)", bad, N + GUARD);
}

static void test_unchecked(const float *x)
{
	float y[N + GUARD];
	size_t bad = 0;
	run_1d("unchecked", x, y);
	for (int i = 0; i < N + GUARD; i++)
		if (!(i < N ? y[i] == x[i] + 1.0f : poisoned(y[i])) && bad++ < 5)
			printf("FAIL unchecked: y[%d] = %a\n", i, y[i]);
	verdict("unchecked (get_unchecked_mut)", bad, N + GUARD);
}

/* tile (tr, tc) is cut when it reaches past row 29 or column 16 */
static float tile_value(int r, int c)
{
	float v = (float)(1000 * r + c);
	int tr = r / 4, tc = c / 3;
	int rows = ROWS - 4 * tr < 4 ? ROWS - 4 * tr : 4, cols = COLS - 3 * tc < 3 ? COLS - 3 * tc : 3;
	if (r % 4 == 0 && c % 3 == 0)
		v += rows == 4 && cols == 3 ? 0.25f : 0.5f;
	if (r % 4 == rows - 1 && c % 3 == cols - 1)
		v += 0.125f;
	return v;
}

static void test_tiles(void)
{
	float m[ROWS * COLS + GUARD];
	OxDevPtr dm;
	OX_CHECK(ox_alloc(&dm, sizeof m));
	OX_CHECK(ox_memset8(dm, 0xff, sizeof m));
	View2D v = {dm, ROWS, COLS};
	void *args[] = {&v};
	launch("tiles", ox_dim(1, 1, 1), ox_dim(8, 8, 1), args);
	OX_CHECK(ox_copy_from_device(m, dm, sizeof m));
	OX_CHECK(ox_free(dm));
	size_t bad = 0;
	for (int i = 0; i < ROWS * COLS + GUARD; i++) {
		int ok = i < ROWS * COLS ? m[i] == tile_value(i / COLS, i % COLS) : poisoned(m[i]);
		if (!ok && bad++ < 5)
			printf("FAIL tiles: m[%d][%d] = %a, expected %a\n", i / COLS, i % COLS, m[i],
			       i < ROWS * COLS ? tile_value(i / COLS, i % COLS) : 0.0f);
	}
	verdict("tiles (tile_mut::<4, 3> of 30 x 17: row_mut, set, get_mut, row_partial_mut)", bad,
	        ROWS * COLS + GUARD);
}

/* element (r, c) is in piece (p, q) = ((r % 12) / 6, (c % 12) / 6) */
static float split_value(int r, int c)
{
	return (float)(1000 * r + c) + (float)(2 * (r % 12 / 6) + c % 12 / 6) / 8.0f;
}

static void test_split_tiles(void)
{
	float m[ROWS * COLS + GUARD];
	OxDevPtr dm;
	OX_CHECK(ox_alloc(&dm, sizeof m));
	OX_CHECK(ox_memset8(dm, 0xff, sizeof m));
	View2D v = {dm, ROWS, COLS};
	void *args[] = {&v};
	launch("split_tiles", ox_dim(2, 3, 1), ox_dim(2, 3, 1), args);
	OX_CHECK(ox_copy_from_device(m, dm, sizeof m));
	OX_CHECK(ox_free(dm));
	size_t bad = 0;
	for (int i = 0; i < ROWS * COLS + GUARD; i++) {
		int ok = i < ROWS * COLS ? m[i] == split_value(i / COLS, i % COLS) : poisoned(m[i]);
		if (!ok && bad++ < 5)
			printf("FAIL split_tiles: m[%d][%d] = %a, expected %a\n", i / COLS, i % COLS, m[i],
			       i < ROWS * COLS ? split_value(i / COLS, i % COLS) : 0.0f);
	}
	verdict("split_tiles (tile_split_mut::<2, 3, 2, 2> of 30 x 17 in 2 x 3 blocks: row_mut, set)", bad,
	        ROWS * COLS + GUARD);
}

int main(int argc, char **argv)
{
	float x[N];
	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	for (int i = 0; i < N; i++)
		x[i] = (float)((i * 2654435761u) % 10007) / 97.0f - 40.0f;
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	test_chunks(x);
	test_unchecked(x);
	test_tiles();
	test_split_tiles();
	return failures != 0;
}
