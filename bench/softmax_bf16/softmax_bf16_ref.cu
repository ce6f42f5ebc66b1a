// bench/softmax_bf16/softmax_bf16_ref.cu: examples/softmax_bf16 in CUDA C,
// line for line: one warp per row, three passes (max, sum of exp(x - max),
// output), 8-byte loads of four bf16, butterfly shuffles, expf, the
// output rounded to bf16 by cvt.rn.bf16.f32 (__float2bfloat16_rn).
// Compiled with nvcc -O3 -arch=sm_90 -cubin by tests/gpu/bench.sh.
#include <cuda_bf16.h>
#include <stdint.h>

__device__ __forceinline__ float unpack(uint64_t w, int i)
{
	return __uint_as_float(((uint32_t)(w >> (16 * i)) & 0xffffu) << 16);
}

extern "C" __global__ void softmax_bf16_ref(const uint16_t *x, uint16_t *y, unsigned rows, unsigned cols)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	size_t row = t / 32, lane = t % 32;
	if (row >= rows)
		return;
	const uint64_t *xr = (const uint64_t *)(x + row * cols);
	uint64_t *yr = (uint64_t *)(y + row * cols);
	size_t words = cols / 4;
	float m = -INFINITY;
	for (size_t j = lane; j < words; j += 32) {
		uint64_t w = xr[j];
		m = fmaxf(fmaxf(fmaxf(fmaxf(m, unpack(w, 0)), unpack(w, 1)), unpack(w, 2)), unpack(w, 3));
	}
	for (int d = 16; d > 0; d /= 2)
		m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, d));
	float s = 0;
	for (size_t j = lane; j < words; j += 32) {
		uint64_t w = xr[j];
		s += expf(unpack(w, 0) - m) + expf(unpack(w, 1) - m) + expf(unpack(w, 2) - m) + expf(unpack(w, 3) - m);
	}
	for (int d = 16; d > 0; d /= 2)
		s += __shfl_xor_sync(0xffffffffu, s, d);
	float inv = 1.0f / s;
	for (size_t j = lane; j < words; j += 32) {
		uint64_t w = xr[j], out = 0;
#pragma unroll
		for (int i = 0; i < 4; i++) {
			__nv_bfloat16 h = __float2bfloat16_rn(expf(unpack(w, i) - m) * inv);
			out |= (uint64_t)__bfloat16_as_ushort(h) << (16 * i);
		}
		yr[j] = out;
	}
}
