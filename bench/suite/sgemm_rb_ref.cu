// bench/suite/sgemm_rb_ref.cu: examples/bench_kernels' sgemm_rb and
// sgemm_db in CUDA C, the same algorithms: blocks of 16 x 16 threads, a
// 128 x 128 tile of C per block, 8 x 8 per thread in registers, k-steps of
// 8 (A's tile stored transposed in shared memory), float4 loads and
// stores, Rust's bounds tests kept (a trap where the Rust slice index
// would panic); sgemm_db_ref double buffered (the next tile loaded into
// registers during the products, one barrier per k-step) with its micro
// tile split as 2 x 2 pieces of 4 x 4. nvcc -O3 -arch=sm_90 (contraction
// on, like #[kernel(contract)]).
// Parameters as oxidec passes them: a slice is (pointer, length), C a
// 24-byte {pointer, rows, cols}.
#include <stdint.h>

struct View2D {
	float *data;
	uint64_t rows, cols;
};

extern "C" __global__ void __launch_bounds__(256) sgemm_rb_ref(const float *a, uint64_t alen, const float *b,
                                                               uint64_t blen, View2D c, uint32_t k32)
{
	const uint64_t k = k32, m = c.rows, n = c.cols;
	if (m % 128 || n % 128 || k % 8)
		return;
	if (((uintptr_t)a | (uintptr_t)b | (uintptr_t)c.data) % 16)
		return;
	const float4 *av = (const float4 *)a, *bv = (const float4 *)b;
	uint64_t anv = alen / 4, bnv = blen / 4;
	__shared__ float4 sa[8][32], sb[8][32];
	unsigned tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
	uint64_t bm = (uint64_t)blockIdx.y * 128, bn = (uint64_t)blockIdx.x * 128;
	unsigned ar = t / 2, ac = (t % 2) * 4, br = t / 32, bc = (t % 32) * 4;
	float acc[8][8] = {};
	for (uint64_t k0 = 0; k0 < k; k0 += 8) {
		uint64_t ia = ((bm + ar) * k + k0 + ac) / 4, ib = ((k0 + br) * n + bn + bc) / 4;
		if (ia >= anv || ib >= bnv)
			__trap();
		float4 va = av[ia];
		float *s = (float *)&sa[0][0];
		s[(ac + 0) * 128 + ar] = va.x;
		s[(ac + 1) * 128 + ar] = va.y;
		s[(ac + 2) * 128 + ar] = va.z;
		s[(ac + 3) * 128 + ar] = va.w;
		sb[br][bc / 4] = bv[ib];
		__syncthreads();
#pragma unroll
		for (int kk = 0; kk < 8; kk++) {
			float4 a0 = sa[kk][ty * 2], a1 = sa[kk][ty * 2 + 1];
			float4 b0 = sb[kk][tx * 2], b1 = sb[kk][tx * 2 + 1];
			float ra[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
			float rb[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
			for (int i = 0; i < 8; i++)
#pragma unroll
				for (int j = 0; j < 8; j++)
					acc[i][j] += ra[i] * rb[j];
		}
		__syncthreads();
	}
	uint64_t row = ((uint64_t)blockIdx.y * 16 + ty) * 8, col = ((uint64_t)blockIdx.x * 16 + tx) * 8;
	if (row >= m || col >= n)
		return;
#pragma unroll
	for (int i = 0; i < 8; i++) {
		float4 *p = (float4 *)(c.data + (row + i) * n + col);
		p[0] = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
		p[1] = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
	}
}

// sgemm_db: two stages of sa and sb; per k-step of DK the registers (the
// tile loaded during the previous k-step's products) go to this k-step's
// stage, one barrier, the next tile's float4s are loaded, then DK outer
// products. Thread (ty, tx) owns rows 4 ty and 64 + 4 ty, columns 4 tx and
// 64 + 4 tx of the block tile (Rust: tile_split_mut::<4, 1, 2, 2>).
#define DK 8
#define DA (DK / 8)

extern "C" __global__ void __launch_bounds__(256, 2) sgemm_db_ref(const float *a, uint64_t alen, const float *b,
                                                               uint64_t blen, View2D c, uint32_t k32)
{
	const uint64_t k = k32, m = c.rows, n = c.cols;
	if (m % 128 || n % 128 || k % DK)
		return;
	if (((uintptr_t)a | (uintptr_t)b | (uintptr_t)c.data) % 16)
		return;
	const float4 *av = (const float4 *)a, *bv = (const float4 *)b;
	uint64_t anv = alen / 4, bnv = blen / 4;
	__shared__ float4 sa[2 * DK][33], sb[2 * DK][32]; // sa's rows padded: conflict-free stores
	unsigned tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
	uint64_t bm = (uint64_t)blockIdx.y * 128, bn = (uint64_t)blockIdx.x * 128;
	unsigned ar = t / (DK / 4), ac = (t % (DK / 4)) * 4, br = t / 32, bc = (t % 32) * 4;
	float acc[8][8] = {};
	if (k) {
		float4 va[DA], vb[DA];
#pragma unroll
		for (int v = 0; v < DA; v++) {
			uint64_t ia = ((bm + ar + 1024 / DK * v) * k + ac) / 4, ib = ((br + 8 * v) * n + bn + bc) / 4;
			if (ia >= anv || ib >= bnv)
				__trap();
			va[v] = av[ia];
			vb[v] = bv[ib];
		}
		for (uint64_t k0 = 0, kt = 0;; kt++) {
			unsigned st = (kt % 2) * DK;
			float *s = (float *)&sa[0][0];
#pragma unroll
			for (int v = 0; v < DA; v++) {
				unsigned r = ar + 1024 / DK * v;
				s[(st + ac + 0) * 132 + r] = va[v].x;
				s[(st + ac + 1) * 132 + r] = va[v].y;
				s[(st + ac + 2) * 132 + r] = va[v].z;
				s[(st + ac + 3) * 132 + r] = va[v].w;
				sb[st + br + 8 * v][bc / 4] = vb[v];
			}
			__syncthreads();
			k0 += DK;
			bool more = k0 < k;
			if (more) {
#pragma unroll
				for (int v = 0; v < DA; v++) {
					uint64_t ia = ((bm + ar + 1024 / DK * v) * k + k0 + ac) / 4;
					uint64_t ib = ((k0 + br + 8 * v) * n + bn + bc) / 4;
					if (ia >= anv || ib >= bnv)
						__trap();
					va[v] = av[ia];
					vb[v] = bv[ib];
				}
			}
#pragma unroll
			for (int kk = 0; kk < DK; kk++) {
				float4 a0 = sa[st + kk][ty], a1 = sa[st + kk][ty + 16];
				float4 b0 = sb[st + kk][tx], b1 = sb[st + kk][tx + 16];
				float ra[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
				float rb[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
				for (int i = 0; i < 8; i++)
#pragma unroll
					for (int j = 0; j < 8; j++)
						acc[i][j] += ra[i] * rb[j];
			}
			if (!more)
				break;
		}
	}
	// with m and n multiples of 128, a piece starts inside C exactly when
	// its block tile does (tile_split_mut's test)
	if (bm >= m || bn >= n)
		return;
#pragma unroll
	for (int p = 0; p < 2; p++)
#pragma unroll
		for (int q = 0; q < 2; q++)
#pragma unroll
			for (int i = 0; i < 4; i++) {
				float *r = acc[4 * p + i] + 4 * q;
				float4 *d = (float4 *)(c.data + (bm + 64 * p + 4 * ty + i) * n + bn + 64 * q + 4 * tx);
				*d = make_float4(r[0], r[1], r[2], r[3]);
			}
}
