// bench/hopper_gemm/hopper_gemm_ref.cu: the algorithm of
// examples/hopper_gemm in CUDA C, line for line: C = A * B^T (bf16 bits in,
// f32 accumulate), blocks of three warpgroups on 128 x 256 tiles of C; the
// producer warpgroup gives up registers (setmaxnreg 40, the consumers take
// 232) and one of its threads issues the TMA copies of the 128 x 64 tile of
// A and the 256 x 64 tile of B into four 48 KiB stages (128-byte swizzle)
// on "full" mbarriers; two consumer warpgroups wait, run four
// wgmma.m64n256k16 each per stage, keep that group in flight while waiting
// for the previous one, and arrive on the previous stage's "empty" mbarrier. The tensor maps are
// __grid_constant__ kernel parameters, as oxidec's kernel takes them (by value; the copies read
// the parameter's generic address). Compiled with nvcc -O3
// -gencode=arch=compute_90a,code=sm_90a -cubin by tests/gpu/bench.sh.
#include <stdint.h>

#define BM 128
#define BN 256
#define BK 64
#define STAGES 4
#define A_BYTES (BM * BK * 2)
#define STAGE_BYTES (A_BYTES + BN * BK * 2)

// CUtensorMap's size and alignment (the bytes are the driver's)
struct alignas(64) TensorMap {
	unsigned char bytes[128];
};

__device__ __forceinline__ uint32_t smem(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(uint64_t *b, unsigned count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(b)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_wait(uint64_t *b, unsigned parity)
{
	unsigned done = 0;
	while (!done)
		asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
		             : "=r"(done) : "r"(smem(b)), "r"(parity) : "memory");
}

__device__ __forceinline__ uint64_t desc(uint32_t addr)
{
	return ((uint64_t)(addr & 0x3ffff) >> 4) | ((uint64_t)(16 >> 4) << 16) | ((uint64_t)(1024 >> 4) << 32) |
	       (1ull << 62);
}

__device__ __forceinline__ void wgmma256(float (&d)[128], uint64_t da, uint64_t db)
{
	asm volatile(
	    "{ .reg .pred p; setp.ne.u32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
	    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, 0; }"
	    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
	    : "l"(da), "l"(db)
	    : "memory");
}

extern "C" __global__ void __launch_bounds__(384, 1)
hopper_gemm_ref(const __grid_constant__ TensorMap a_map, const __grid_constant__ TensorMap b_map, float *c, unsigned m,
                unsigned n, unsigned k)
{
	extern __shared__ __align__(16) uint8_t raw[];
	uint8_t *sm = raw + ((1024 - (smem(raw) & 1023)) & 1023);
	uint64_t *bars = (uint64_t *)(sm + STAGES * STAGE_BYTES);
	int tid = threadIdx.x, wg = tid / 128;
	unsigned m0 = blockIdx.y * BM, n0 = blockIdx.x * BN, tiles = k / BK;
	(void)m;
	if (tid == 0) {
		for (int s = 0; s < STAGES; s++) {
			mbar_init(&bars[s], 1);
			mbar_init(&bars[STAGES + s], 2);
		}
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	__syncthreads();
	if (wg == 0) {
		asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
		if (tid == 0)
			for (unsigned kt = 0; kt < tiles; kt++) {
				int s = kt % STAGES;
				if (kt >= STAGES)
					mbar_wait(&bars[STAGES + s], (kt / STAGES - 1) % 2);
				asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&bars[s])),
				             "r"(STAGE_BYTES) : "memory");
				uint8_t *st = sm + s * STAGE_BYTES;
				asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
				             "[%0], [%1, {%2, %3}], [%4];" ::"r"(smem(st)), "l"(&a_map), "r"((int)(kt * BK)),
				             "r"((int)m0), "r"(smem(&bars[s])) : "memory");
				asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
				             "[%0], [%1, {%2, %3}], [%4];" ::"r"(smem(st + A_BYTES)), "l"(&b_map),
				             "r"((int)(kt * BK)), "r"((int)n0), "r"(smem(&bars[s])) : "memory");
			}
		return;
	}
	asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
	int cw = wg - 1;
	float acc[128];
#pragma unroll
	for (int i = 0; i < 128; i++)
		acc[i] = 0;
	for (unsigned kt = 0; kt < tiles; kt++) {
		int s = kt % STAGES;
		mbar_wait(&bars[s], (kt / STAGES) % 2);
		uint32_t a_base = smem(sm + s * STAGE_BYTES + cw * 64 * 128), b_base = smem(sm + s * STAGE_BYTES + A_BYTES);
		asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
		for (int kk = 0; kk < BK / 16; kk++)
			wgmma256(acc, desc(a_base + kk * 32), desc(b_base + kk * 32));
		asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
		asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
		if (kt > 0 && tid % 128 == 0)
			asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(&bars[STAGES + (kt - 1) % STAGES]))
			             : "memory");
	}
	asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
	int t = tid % 128, w = t / 32, g = t % 32 / 4, q = t % 4;
	size_t row = m0 + cw * 64 + 16 * w + g;
#pragma unroll
	for (int j = 0; j < 32; j++) {
		size_t col = n0 + 8 * j + 2 * q;
		c[row * n + col] = acc[4 * j];
		c[row * n + col + 1] = acc[4 * j + 1];
		c[(row + 8) * n + col] = acc[4 * j + 2];
		c[(row + 8) * n + col + 1] = acc[4 * j + 3];
	}
}

// hopper_gemm_persistent_ref: examples/hopper_gemm's hopper_gemm_persistent, line for line: the
// mainloop above, persistent (the host launches one block per multiprocessor, an even number) and
// in clusters of two blocks. Cluster c takes the 256 x 256 tiles c, c + G, ... (G clusters) in
// grouped raster order (groups of 8 tile rows, each walked column by column); its block of rank r
// computes the 128 x 256 tile at rows 256 i + 128 r. Each block loads its 128 x 64 slice of A and
// multicasts its half (rows 128 r ..) of the tile's 256 x 64 slice of B into both blocks' stage;
// the producer counts k-steps across tiles (it fills the next tile's stages during the stores);
// each consumer warpgroup frees a stage in both blocks (a remote mbarrier arrive through mapa),
// so the empty barriers expect 4 arrivals. The B map's box is 64 x 128.
#define GROUP_M 8
#define B_HALF (BM * BK * 2)

__device__ __forceinline__ unsigned sreg_cluster_ctarank()
{
	unsigned r;
	asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
	return r;
}

__device__ __forceinline__ unsigned sreg_clusterid_x()
{
	unsigned r;
	asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r));
	return r;
}

__device__ __forceinline__ unsigned sreg_nclusterid_x()
{
	unsigned r;
	asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(r));
	return r;
}

__device__ __forceinline__ void cluster_sync()
{
	asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
}

__device__ __forceinline__ void mbar_arrive_cluster(uint64_t *b, unsigned rank)
{
	asm volatile("{ .reg .b32 ra; mapa.shared::cluster.u32 ra, %0, %1; "
	             "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [ra]; }" ::"r"(smem(b)), "r"(rank)
	             : "memory");
}

__device__ __forceinline__ void tile_at(unsigned t, unsigned tiles_m, unsigned tiles_n, unsigned &tm,
                                        unsigned &tn)
{
	unsigned group = GROUP_M * tiles_n, first = t / group * GROUP_M;
	unsigned rows = tiles_m - first < GROUP_M ? tiles_m - first : GROUP_M;
	tm = first + t % group % rows;
	tn = t % group / rows;
}

__device__ __forceinline__ void wgmma256p(float (&d)[128], uint64_t da, uint64_t db, int accumulate)
{
	asm volatile(
	    "{ .reg .pred p; setp.ne.u32 p, %130, 0; wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
	    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, 0; }"
	    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
	    : "l"(da), "l"(db), "r"(accumulate)
	    : "memory");
}

// a consumer warpgroup frees stage s in both blocks: warp 0 on rank 0's barrier, warp 1 on rank 1's
__device__ __forceinline__ void free_stage(uint64_t *bars, int s, int t128)
{
	if (t128 % 32 == 0 && t128 < 64)
		mbar_arrive_cluster(&bars[STAGES + s], t128 / 32);
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(384, 1)
hopper_gemm_persistent_ref(const __grid_constant__ TensorMap a_map, const __grid_constant__ TensorMap b_map,
                           float *c, unsigned m, unsigned n, unsigned k)
{
	extern __shared__ __align__(16) uint8_t raw[];
	uint8_t *sm = raw + ((1024 - (smem(raw) & 1023)) & 1023);
	uint64_t *bars = (uint64_t *)(sm + STAGES * STAGE_BYTES);
	int tid = threadIdx.x, wg = tid / 128;
	unsigned rank = sreg_cluster_ctarank(), clusters = sreg_nclusterid_x(), first = sreg_clusterid_x();
	unsigned ksteps = k / BK, tiles_m = m / (2 * BM), tiles_n = n / BN, tiles = tiles_m * tiles_n;
	if (tid == 0) {
		for (int s = 0; s < STAGES; s++) {
			mbar_init(&bars[s], 1);
			mbar_init(&bars[STAGES + s], 4);
		}
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	cluster_sync();
	if (wg == 0) {
		asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
		if (tid == 0) {
			unsigned it = 0;
			for (unsigned t = first; t < tiles; t += clusters) {
				unsigned tm, tn;
				tile_at(t, tiles_m, tiles_n, tm, tn);
				unsigned m0 = (2 * tm + rank) * BM, nb = tn * BN + rank * BM;
				for (unsigned kt = 0; kt < ksteps; kt++, it++) {
					int s = it % STAGES, x = kt * BK;
					if (it >= STAGES)
						mbar_wait(&bars[STAGES + s], (it / STAGES - 1) % 2);
					asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&bars[s])),
					             "r"(STAGE_BYTES) : "memory");
					uint8_t *st = sm + s * STAGE_BYTES;
					asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
					             "[%0], [%1, {%2, %3}], [%4];" ::"r"(smem(st)), "l"(&a_map), "r"(x), "r"((int)m0),
					             "r"(smem(&bars[s])) : "memory");
					asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
					             ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;"
					             ::"r"(smem(st + A_BYTES + rank * B_HALF)), "l"(&b_map), "r"(x), "r"((int)nb),
					             "r"(smem(&bars[s])), "h"((unsigned short)3) : "memory");
				}
			}
		}
		cluster_sync();
		return;
	}
	asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
	int cw = wg - 1, t128 = tid % 128, w = t128 / 32, g = t128 % 32 / 4, q = t128 % 4;
	float acc[128];
#pragma unroll
	for (int i = 0; i < 128; i++)
		acc[i] = 0;
	unsigned it = 0;
	for (unsigned t = first; t < tiles; t += clusters) {
		unsigned tm, tn;
		tile_at(t, tiles_m, tiles_n, tm, tn);
		for (unsigned kt = 0; kt < ksteps; kt++, it++) {
			int s = it % STAGES;
			mbar_wait(&bars[s], (it / STAGES) % 2);
			uint32_t a_base = smem(sm + s * STAGE_BYTES + cw * 64 * 128), b_base = smem(sm + s * STAGE_BYTES + A_BYTES);
			asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
			for (int kk = 0; kk < BK / 16; kk++)
				wgmma256p(acc, desc(a_base + kk * 32), desc(b_base + kk * 32), kt > 0 || kk > 0);
			asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
			asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
			if (kt > 0)
				free_stage(bars, (it - 1) % STAGES, t128);
		}
		asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
		free_stage(bars, (it - 1) % STAGES, t128);
		size_t row = (2 * tm + rank) * BM + cw * 64 + 16 * w + g, n0 = tn * BN;
#pragma unroll
		for (int j = 0; j < 32; j++) {
			size_t col = n0 + 8 * j + 2 * q;
			c[row * n + col] = acc[4 * j];
			c[row * n + col + 1] = acc[4 * j + 1];
			c[(row + 8) * n + col] = acc[4 * j + 2];
			c[(row + 8) * n + col + 1] = acc[4 * j + 3];
		}
	}
	cluster_sync();
}
