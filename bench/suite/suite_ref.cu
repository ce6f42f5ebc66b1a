// bench/suite/suite_ref.cu: the CUDA C twins of make bench's kernels, each
// the same algorithm as its Rust original, with Rust's bounds tests (a trap
// where a Rust slice index would panic). nvcc -O3 -arch=sm_90 -fmad=false:
// Rust does not contract a * b + c, so neither do these (outputs equal bit
// for bit). Parameters as oxidec passes them: a slice is (pointer, length).
//   copy_f32x4_ref     examples/bench_kernels copy_f32x4: the float4 copy,
//                      also the bench's copy ceiling
//   reduce_sum_ref     bench_kernels reduce_sum (grid-stride, shuffles)
//   histogram256_ref   bench_kernels histogram256 (shared-memory atomics)
//   softmax_rows_ref   bench_kernels softmax_rows (one warp per 4096-row)
//   transpose_ref      examples/transpose (32 x 33 shared tile)
//   stencil2d_ref      examples/stencil2d (5 points, shared halo)
//   warp_sum_scan_ref  examples/warp_reduce warp_sum_scan (shfl tree + scan)
#include <stdint.h>

#define CHECK(c) \
	do { \
		if (!(c)) \
			__trap(); \
	} while (0)

static __device__ bool aligned16(const void *p)
{
	return (uintptr_t)p % 16 == 0;
}

extern "C" __global__ void copy_f32x4_ref(const float *x, uint64_t xlen, float *y, uint64_t ylen)
{
	if (!aligned16(x) || !aligned16(y))
		return;
	uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	uint64_t xn = xlen / 4, yn = ylen / 4;
	if (i < yn && i < xn)
		((float4 *)y)[i] = ((const float4 *)x)[i];
	if (i < ylen - yn * 4 && i < xlen - xn * 4)
		y[yn * 4 + i] = x[xn * 4 + i];
}

static __device__ float warp_sum(float v)
{
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		v += __shfl_down_sync(0xffffffffu, v, off);
	return v;
}

extern "C" __global__ void __launch_bounds__(256) reduce_sum_ref(const float *x, uint64_t xlen, float *partial,
                                                                 uint64_t plen)
{
	__shared__ float warp_sums[8];
	if (!aligned16(x))
		return;
	const float4 *xv = (const float4 *)x;
	uint64_t nv = xlen / 4, tail = xlen - nv * 4;
	uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, grid = (uint64_t)gridDim.x * 256;
	float s = 0.0f;
	for (uint64_t i = g; i < nv; i += grid) {
		float4 v = xv[i];
		s += (v.x + v.y) + (v.z + v.w);
	}
	if (g < tail)
		s += x[nv * 4 + g];
	s = warp_sum(s);
	unsigned t = threadIdx.x;
	if (t % 32 == 0)
		warp_sums[t / 32] = s;
	__syncthreads();
	if (t < 32) {
		float v = t < 8 ? warp_sums[t] : 0.0f;
		v = warp_sum(v);
		if (t == 0) {
			CHECK(blockIdx.x < plen);
			partial[blockIdx.x] = v;
		}
	}
}

extern "C" __global__ void __launch_bounds__(256) histogram256_ref(const uint32_t *data, uint64_t len,
                                                                   uint32_t *bins, uint64_t nbins)
{
	__shared__ uint32_t local[256];
	if (!aligned16(data))
		return;
	const uint4 *dv = (const uint4 *)data;
	uint64_t nv = len / 4, tail = len - nv * 4;
	unsigned t = threadIdx.x;
	local[t] = 0;
	__syncthreads();
	uint64_t g = (uint64_t)blockIdx.x * blockDim.x + t, grid = (uint64_t)gridDim.x * 256;
	for (uint64_t i = g; i < nv; i += grid) {
		uint4 v = dv[i];
		atomicAdd_block(&local[v.x & 255], 1u);
		atomicAdd_block(&local[v.y & 255], 1u);
		atomicAdd_block(&local[v.z & 255], 1u);
		atomicAdd_block(&local[v.w & 255], 1u);
	}
	if (g < tail)
		atomicAdd_block(&local[data[nv * 4 + g] & 255], 1u);
	__syncthreads();
	uint32_t c = local[t];
	if (c != 0 && t < nbins)
		atomicAdd(&bins[t], c);
}

#define COLS 4096
#define VPL (COLS / 4 / 32)

extern "C" __global__ void __launch_bounds__(256) softmax_rows_ref(const float *x, uint64_t xlen, float *y,
                                                                   uint64_t ylen)
{
	if (!aligned16(x) || !aligned16(y))
		return;
	const float4 *xv = (const float4 *)x;
	float4 *yv = (float4 *)y;
	uint64_t xnv = xlen / 4, rows = ylen / 4 / 32 / VPL;
	uint64_t row = (uint64_t)blockIdx.y * blockDim.y + threadIdx.y;
	unsigned lane = blockIdx.x * blockDim.x + threadIdx.x;
	if (row >= rows || lane >= 32)
		return;
	uint64_t base = row * (COLS / 4) + lane;
	float m = -INFINITY;
	for (int j = 0; j < VPL; j++) {
		CHECK(base + 32 * j < xnv);
		float4 v = xv[base + 32 * j];
		m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
	}
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
	float s = 0.0f;
	for (int j = 0; j < VPL; j++) {
		CHECK(base + 32 * j < xnv);
		float4 v = xv[base + 32 * j];
		s += (expf(v.x - m) + expf(v.y - m)) + (expf(v.z - m) + expf(v.w - m));
	}
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		s += __shfl_xor_sync(0xffffffffu, s, off);
	for (int j = 0; j < VPL; j++) {
		CHECK(base + 32 * j < xnv);
		float4 v = xv[base + 32 * j];
		yv[base + 32 * j] = make_float4(expf(v.x - m) / s, expf(v.y - m) / s, expf(v.z - m) / s, expf(v.w - m) / s);
	}
}

extern "C" __global__ void transpose_ref(const float *input, uint64_t len, float *out, uint32_t width, uint32_t height)
{
	__shared__ float tile[32][33];
	unsigned tx = threadIdx.x, ty = threadIdx.y;
	unsigned bx = blockIdx.x * 32, by = blockIdx.y * 32;
	for (unsigned j = 0; j < 32; j += 8) {
		unsigned x = bx + tx, y = by + ty + j;
		if (x < width && y < height) {
			CHECK((uint64_t)(y * width + x) < len);
			tile[ty + j][tx] = input[y * width + x];
		}
	}
	__syncthreads();
	for (unsigned j = 0; j < 32; j += 8) {
		unsigned x = by + tx, y = bx + ty + j;
		if (x < height && y < width)
			out[y * height + x] = tile[tx][ty + j];
	}
}

static __device__ float at(const float *input, uint64_t len, unsigned x, unsigned y, unsigned width, unsigned height)
{
	if (x < width && y < height) {
		CHECK((uint64_t)(y * width + x) < len);
		return input[y * width + x];
	}
	return 0.0f;
}

extern "C" __global__ void stencil2d_ref(const float *input, uint64_t len, float *out, uint32_t width, uint32_t height)
{
	__shared__ float tile[18][18];
	unsigned tx = threadIdx.x, ty = threadIdx.y;
	unsigned x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
#define AT(X, Y) at(input, len, X, Y, width, height)
	unsigned lx = tx + 1, ly = ty + 1;
	tile[ly][lx] = AT(x, y);
	if (tx == 0)
		tile[ly][0] = AT(x - 1, y);
	if (tx == 15)
		tile[ly][lx + 1] = AT(x + 1, y);
	if (ty == 0)
		tile[0][lx] = AT(x, y - 1);
	if (ty == 15)
		tile[ly + 1][lx] = AT(x, y + 1);
#undef AT
	__syncthreads();
	if (x < width && y < height) {
		float c = tile[ly][lx], v;
		if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
			v = c;
		} else {
			float sum = tile[ly - 1][lx] + tile[ly + 1][lx] + tile[ly][lx - 1] + tile[ly][lx + 1];
			v = 0.5f * c + 0.125f * sum;
		}
		out[y * width + x] = v;
	}
}

extern "C" __global__ void warp_sum_scan_ref(const float *x, uint64_t xlen, float *scan, uint64_t slen, float *sums,
                                             uint64_t nsums)
{
	uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	CHECK(i < xlen);
	float v = x[i], s = v;
	for (int off = 16; off > 0; off /= 2)
		s += __shfl_down_sync(0xffffffffu, s, off);
	unsigned lane = threadIdx.x % 32;
	float p = v;
	for (unsigned d = 1; d < 32; d *= 2) {
		float t = __shfl_up_sync(0xffffffffu, p, d);
		if (lane >= d)
			p += t;
	}
	if (i < slen)
		scan[i] = p;
	if (lane == 0) {
		CHECK(i / 32 < nsums);
		sums[i / 32] = s;
	}
}
