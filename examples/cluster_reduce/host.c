/* examples/cluster_reduce/host.c: thread-block clusters (sm_90).
 *   cluster_sum(input: &[u32], out: *mut u32), #[kernel(cluster(4))],
 *     launched with plain ox_launch: blocks of 128 threads, clusters of 4
 *     blocks; out[c] is the wrapping sum of cluster c's 512 elements
 *     (elements past the end count as 0), checked for every cluster.
 *     Its cluster shape is also read back (ox_func_attribute
 *     REQUIRED_CLUSTER_WIDTH / HEIGHT / DEPTH: 4x1x1; cluster_ring: 0).
 *   cluster_ring(info: *mut u32), launched with ox_launch_cluster in
 *     clusters of 2x2 blocks on a 6x4 grid of 64-thread blocks, 8 bytes of
 *     dynamic shared memory: every block's 12 words of info (its rank and
 *     the cluster size, what the previous rank stored into its shared
 *     memory, the counter every thread of the cluster incremented in rank
 *     0's shared memory, the cluster registers) are checked.
 *   cluster_arrive(out: *mut u32), launched with ox_launch_cluster in
 *     clusters of 4 on a grid of 8 blocks of 64 threads, 8 bytes of dynamic
 *     shared memory: block r's mbarrier gets its r + 1 arrivals from the
 *     previous block (mbarrier_arrive_cluster); every block must report
 *     its phase complete (1) and the next one not (0).
 *   The misuse checks: a cluster_sum launch in clusters of another shape,
 *     and a grid that is not a whole number of clusters, must fail with
 *     CUDA_ERROR_INVALID_CLUSTER_SIZE (not tried with OX_SKIP_TRAP_TEST set,
 *     as under compute-sanitizer).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>

#define BLOCK 128u
#define CLUSTER 4u
#define INVALID_CLUSTER_SIZE 912

static uint32_t rng_state = 0x9e3779b9u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static int check_sum(const OxFunc *fn)
{
	const size_t n = 100000;     /* the last cluster is partial */
	size_t blocks = ox_blocks_for(n, BLOCK);
	size_t clusters = (blocks + CLUSTER - 1) / CLUSTER, bad = 0;
	uint32_t *in = malloc(n * sizeof *in), *out = malloc(clusters * sizeof *out);
	uint64_t len = n;
	OxDevPtr din, dout;
	void *args[] = {&din, &len, &dout};

	if (in == NULL || out == NULL)
		exit(1);
	for (size_t i = 0; i < n; i++)
		in[i] = rng_next();
	OX_CHECK(ox_alloc(&din, n * sizeof *in));
	OX_CHECK(ox_alloc(&dout, clusters * sizeof *out));
	OX_CHECK(ox_copy_to_device(din, in, n * sizeof *in));
	OX_CHECK(ox_memset32(dout, 0xdeadbeefu, clusters));
	OX_CHECK(ox_launch_sync(fn, ox_dim((unsigned)(clusters * CLUSTER), 1, 1), ox_dim(BLOCK, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(out, dout, clusters * sizeof *out));
	for (size_t c = 0; c < clusters; c++) {
		uint32_t want = 0;
		for (size_t i = c * CLUSTER * BLOCK; i < (c + 1) * CLUSTER * BLOCK && i < n; i++)
			want += in[i];
		if (out[c] != want && bad++ < 5)
			printf("  cluster %zu: got %#x, want %#x\n", c, out[c], want);
	}
	if (bad == 0)
		printf("PASS cluster_sum: %zu cluster sums of %u blocks through distributed shared memory\n",
		       clusters, CLUSTER);
	else
		printf("FAIL cluster_sum: %zu of %zu cluster sums differ\n", bad, clusters);
	OX_CHECK(ox_free(din));
	OX_CHECK(ox_free(dout));
	free(in);
	free(out);
	return bad != 0;
}

/* What block (bx, by) of the 6x4 grid in 2x2 clusters must report. */
static void ring_want(unsigned bx, unsigned by, uint32_t w[12])
{
	unsigned cx = bx % 2, cy = by % 2, rank = cx + 2 * cy;

	w[0] = rank;
	w[1] = 4;
	w[2] = (rank + 3) % 4;         /* the previous rank stored its rank */
	w[3] = rank == 0 ? 4 * 64 : 0; /* every thread of the cluster added 1 */
	w[4] = cx;
	w[5] = cy;
	w[6] = 2;
	w[7] = 2;
	w[8] = bx / 2;
	w[9] = by / 2;
	w[10] = 3 + 100 * 2;
	w[11] = 1;
}

static int check_ring(const OxFunc *fn)
{
	enum { GX = 6, GY = 4, WORDS = 12 };
	uint32_t info[GX * GY * WORDS];
	OxDevPtr dinfo;
	void *args[] = {&dinfo};
	size_t bad = 0;

	OX_CHECK(ox_alloc(&dinfo, sizeof info));
	OX_CHECK(ox_memset32(dinfo, 0xdeadbeefu, GX * GY * WORDS));
	OX_CHECK(ox_launch_cluster(fn, ox_dim(GX, GY, 1), ox_dim(64, 1, 1), ox_dim(2, 2, 1), 8, args));
	OX_CHECK(ox_synchronize());
	OX_CHECK(ox_copy_from_device(info, dinfo, sizeof info));
	for (unsigned by = 0; by < GY; by++)
		for (unsigned bx = 0; bx < GX; bx++) {
			uint32_t w[WORDS];
			const uint32_t *got = &info[(by * GX + bx) * WORDS];
			ring_want(bx, by, w);
			for (unsigned k = 0; k < WORDS; k++)
				if (got[k] != w[k] && bad++ < 5)
					printf("  block (%u,%u) word %u: got %u, want %u\n", bx, by, k, got[k], w[k]);
		}
	if (bad == 0)
		printf("PASS cluster_ring: %d blocks in 2x2 clusters: remote stores, remote atomics, cluster registers\n",
		       GX * GY);
	else
		printf("FAIL cluster_ring: %zu words differ\n", bad);
	OX_CHECK(ox_free(dinfo));
	return bad != 0;
}

static int check_arrive(const OxFunc *fn)
{
	enum { BLOCKS = 8 };
	uint32_t out[2 * BLOCKS];
	OxDevPtr d;
	void *args[] = {&d};
	size_t bad = 0;

	OX_CHECK(ox_alloc(&d, sizeof out));
	OX_CHECK(ox_memset32(d, 0xdeadbeefu, 2 * BLOCKS));
	OX_CHECK(ox_launch_cluster(fn, ox_dim(BLOCKS, 1, 1), ox_dim(64, 1, 1), ox_dim(CLUSTER, 1, 1), 8, args));
	OX_CHECK(ox_synchronize());
	OX_CHECK(ox_copy_from_device(out, d, sizeof out));
	for (unsigned b = 0; b < BLOCKS; b++)
		if (out[2 * b] != 1 || out[2 * b + 1] != 0) {
			if (bad++ < 4)
				printf("  block %u: phase 0 %#x (want 1), phase 1 %#x (want 0)\n", b, out[2 * b],
				       out[2 * b + 1]);
		}
	printf("%s cluster_arrive: %u blocks in clusters of %u, remote mbarrier arrivals\n", bad ? "FAIL" : "PASS",
	       BLOCKS, CLUSTER);
	OX_CHECK(ox_free(d));
	return bad != 0;
}

/* A launch that must fail with CUDA_ERROR_INVALID_CLUSTER_SIZE. */
static int check_refused(const char *what, int rc)
{
	if (rc != 0 && ox_error_code() == INVALID_CLUSTER_SIZE) {
		printf("PASS refused: %s\n", what);
		return 0;
	}
	printf("FAIL refused: %s: %s\n", what, rc == 0 ? "it launched" : ox_error());
	return 1;
}

int main(int argc, char **argv)
{
	OxModule mod;
	OxFunc sum, ring, arrive;
	OxDevPtr d;
	uint64_t len = 0;
	void *args[] = {&d, &len, &d};
	int failed;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&sum, &mod, "cluster_sum"));
	OX_CHECK(ox_function(&ring, &mod, "cluster_ring"));
	OX_CHECK(ox_function(&arrive, &mod, "cluster_arrive"));
	{
		int w = -1, h = -1, d3 = -1, w2 = -1;
		int ok = ox_func_attribute(&w, OX_FUNC_REQUIRED_CLUSTER_WIDTH, &sum) == 0 &&
		         ox_func_attribute(&h, OX_FUNC_REQUIRED_CLUSTER_HEIGHT, &sum) == 0 &&
		         ox_func_attribute(&d3, OX_FUNC_REQUIRED_CLUSTER_DEPTH, &sum) == 0 &&
		         ox_func_attribute(&w2, OX_FUNC_REQUIRED_CLUSTER_WIDTH, &ring) == 0;
		ok = ok && w == 4 && h == 1 && d3 == 1 && w2 == 0;
		printf("%s cluster shapes: cluster_sum %dx%dx%d, cluster_ring %d (none)\n", ok ? "PASS" : "FAIL", w, h, d3, w2);
		failed = !ok;
	}
	failed += check_sum(&sum);
	failed += check_ring(&ring);
	failed += check_arrive(&arrive);
	if (getenv("OX_SKIP_TRAP_TEST")) {
		/* compute-sanitizer reports a refused launch as an error */
		printf("PASS refused: (OX_SKIP_TRAP_TEST: the refused cluster launches are not tried)\n");
		return failed != 0;
	}
	OX_CHECK(ox_alloc(&d, 4));
	failed += check_refused("cluster_sum (cluster(4)) launched in clusters of 2",
	                        ox_launch_cluster(&sum, ox_dim(8, 1, 1), ox_dim(BLOCK, 1, 1), ox_dim(2, 1, 1), 0, args));
	failed += check_refused("cluster_sum on a grid of 6 blocks (not a multiple of 4)",
	                        ox_launch(&sum, ox_dim(6, 1, 1), ox_dim(BLOCK, 1, 1), 0, args));
	OX_CHECK(ox_free(d));
	return failed != 0;
}
