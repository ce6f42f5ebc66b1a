// bench/mma_gemm/mma_gemm_ref.cu: the algorithm of examples/mma_gemm in
// CUDA C, line for line: C = A * B^T (bf16 bits in, f32 accumulate), blocks
// of 256 threads on 128 x 128 tiles of C, k-steps of 32 through shared
// memory (rows padded to 40 elements), per warp 64 x 32, per 16 of k four
// ldmatrix.x4 for A, two for B and 16 mma.sync.m16n8k16. Compiled with
// nvcc -O3 -arch=sm_90 -cubin by tests/gpu/bench.sh.
#include <stdint.h>

#define BM 128
#define BN 128
#define BK 32
#define LD (BK + 8)

__device__ __forceinline__ void ldmatrix_x4(uint32_t d[4], const uint16_t *p)
{
	unsigned a = (unsigned)__cvta_generic_to_shared(p);
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
	             : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a));
}

__device__ __forceinline__ void mma_bf16(const uint32_t a[4], const uint32_t b[2], float c[4])
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
	             "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
	             : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void load_tile(const uint16_t *src, size_t k, uint16_t *dst, int tid)
{
#pragma unroll
	for (int i = 0; i < 2; i++) {
		int chunk = tid + i * 256, row = chunk / 4, col = (chunk % 4) * 8;
		const uint64_t *s = (const uint64_t *)(src + row * k + col);
		uint64_t *d = (uint64_t *)(dst + row * LD + col);
		d[0] = s[0];
		d[1] = s[1];
	}
}

extern "C" __global__ void __launch_bounds__(256)
mma_gemm_ref(const uint16_t *a, const uint16_t *b, float *c, unsigned m, unsigned n, unsigned k)
{
	__shared__ __align__(16) uint16_t as[BM * LD];
	__shared__ __align__(16) uint16_t bs[BN * LD];
	int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, wm = warp / 4, wn = warp % 4;
	size_t m0 = (size_t)blockIdx.y * BM, n0 = (size_t)blockIdx.x * BN;
	float acc[4][4][4] = {};
	(void)m;
	for (size_t k0 = 0; k0 < k; k0 += BK) {
		load_tile(a + m0 * k + k0, k, as, tid);
		load_tile(b + n0 * k + k0, k, bs, tid);
		__syncthreads();
#pragma unroll
		for (int kk = 0; kk < BK; kk += 16) {
			uint32_t af[4][4], bf[4][2];
#pragma unroll
			for (int mt = 0; mt < 4; mt++) {
				int row = wm * 64 + mt * 16 + (lane / 8 % 2) * 8 + lane % 8, col = kk + (lane / 16) * 8;
				ldmatrix_x4(af[mt], as + row * LD + col);
			}
#pragma unroll
			for (int np = 0; np < 2; np++) {
				int row = wn * 32 + np * 16 + (lane / 16) * 8 + lane % 8, col = kk + (lane / 8 % 2) * 8;
				uint32_t r[4];
				ldmatrix_x4(r, bs + row * LD + col);
				bf[2 * np][0] = r[0];
				bf[2 * np][1] = r[1];
				bf[2 * np + 1][0] = r[2];
				bf[2 * np + 1][1] = r[3];
			}
#pragma unroll
			for (int mt = 0; mt < 4; mt++)
#pragma unroll
				for (int nt = 0; nt < 4; nt++)
					mma_bf16(af[mt], bf[nt], acc[mt][nt]);
		}
		__syncthreads();
	}
	int g = lane / 4, t = lane % 4;
#pragma unroll
	for (int mt = 0; mt < 4; mt++)
#pragma unroll
		for (int nt = 0; nt < 4; nt++) {
			size_t row = m0 + wm * 64 + mt * 16 + g, col = n0 + wn * 32 + nt * 8 + 2 * t;
			c[row * n + col] = acc[mt][nt][0];
			c[row * n + col + 1] = acc[mt][nt][1];
			c[(row + 8) * n + col] = acc[mt][nt][2];
			c[(row + 8) * n + col + 1] = acc[mt][nt][3];
		}
}

// mma_gemm_pipelined of examples/mma_gemm: the same with three cp.async.cg
// stages and 64-byte rows swizzled (chunk c of row r at c ^ (r / 2 % 4)).
#define STAGES 3

__device__ __forceinline__ int swz(int row, int col)
{
	return row * BK + (((col / 8) ^ (row / 2 % 4)) * 8) + col % 8;
}

__device__ __forceinline__ void load_tile_async(const uint16_t *src, size_t k, uint16_t *dst, int tid)
{
#pragma unroll
	for (int i = 0; i < 2; i++) {
		int chunk = tid + i * 256, row = chunk / 4, col = (chunk % 4) * 8;
		unsigned s = (unsigned)__cvta_generic_to_shared(dst + swz(row, col));
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(src + row * k + col) : "memory");
	}
}

extern "C" __global__ void __launch_bounds__(256)
mma_gemm_pipelined_ref(const uint16_t *a, const uint16_t *b, float *c, unsigned m, unsigned n, unsigned k)
{
	__shared__ __align__(128) uint16_t sa[STAGES][BM * BK];
	__shared__ __align__(128) uint16_t sb[STAGES][BN * BK];
	int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, wm = warp / 4, wn = warp % 4;
	size_t m0 = (size_t)blockIdx.y * BM, n0 = (size_t)blockIdx.x * BN;
	int tiles = k / BK;
	const uint16_t *a0 = a + m0 * k, *b0 = b + n0 * k;
	float acc[4][4][4] = {};
	(void)m;
	for (int s = 0; s < STAGES - 1; s++) {
		if (s < tiles) {
			load_tile_async(a0 + s * BK, k, sa[s], tid);
			load_tile_async(b0 + s * BK, k, sb[s], tid);
		}
		asm volatile("cp.async.commit_group;" ::: "memory");
	}
	for (int kt = 0; kt < tiles; kt++) {
		asm volatile("cp.async.wait_group %0;" ::"n"(STAGES - 2) : "memory");
		__syncthreads();
		int next = kt + STAGES - 1;
		if (next < tiles) {
			load_tile_async(a0 + (size_t)next * BK, k, sa[next % STAGES], tid);
			load_tile_async(b0 + (size_t)next * BK, k, sb[next % STAGES], tid);
		}
		asm volatile("cp.async.commit_group;" ::: "memory");
		const uint16_t *ta = sa[kt % STAGES], *tb = sb[kt % STAGES];
#pragma unroll
		for (int kk = 0; kk < BK; kk += 16) {
			uint32_t af[4][4], bf[4][2];
#pragma unroll
			for (int mt = 0; mt < 4; mt++) {
				int row = wm * 64 + mt * 16 + (lane / 8 % 2) * 8 + lane % 8;
				ldmatrix_x4(af[mt], ta + swz(row, kk + (lane / 16) * 8));
			}
#pragma unroll
			for (int np = 0; np < 2; np++) {
				int row = wn * 32 + np * 16 + (lane / 16) * 8 + lane % 8;
				uint32_t r[4];
				ldmatrix_x4(r, tb + swz(row, kk + (lane / 8 % 2) * 8));
				bf[2 * np][0] = r[0];
				bf[2 * np][1] = r[1];
				bf[2 * np + 1][0] = r[2];
				bf[2 * np + 1][1] = r[3];
			}
#pragma unroll
			for (int mt = 0; mt < 4; mt++)
#pragma unroll
				for (int nt = 0; nt < 4; nt++)
					mma_bf16(af[mt], bf[nt], acc[mt][nt]);
		}
	}
	int g = lane / 4, t = lane % 4;
#pragma unroll
	for (int mt = 0; mt < 4; mt++)
#pragma unroll
		for (int nt = 0; nt < 4; nt++) {
			size_t row = m0 + wm * 64 + mt * 16 + g, col = n0 + wn * 32 + nt * 8 + 2 * t;
			c[row * n + col] = acc[mt][nt][0];
			c[row * n + col + 1] = acc[mt][nt][1];
			c[(row + 8) * n + col] = acc[mt][nt][2];
			c[(row + 8) * n + col + 1] = acc[mt][nt][3];
		}
}
