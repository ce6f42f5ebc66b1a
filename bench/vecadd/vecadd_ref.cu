/* bench/vecadd/vecadd_ref.cu: the CUDA C reference for oxidec's vecadd,
 * written to do the same work as the Rust kernel (examples/vecadd):
 *   - the index is computed in 64 bits, like thread::index_1d()'s usize;
 *   - c's check (i < c_len) skips the thread, like DisjointSlice::get_mut;
 *   - a[i] and b[i] are bounds-checked and trap, like Rust's slice index;
 *   - a and b are const __restrict__, as rustc marks &[f32] noalias
 *     readonly; the add is a plain f32 add.
 * Built with nvcc -O3 -arch=sm_90 -cubin and launched through the same
 * runtime (src/runtime/oxrt.c) with the same parameter list:
 * (a_ptr, a_len, b_ptr, b_len, c_ptr, c_len). */
#include <stddef.h>

extern "C" __global__ void vecadd_ref(const float *__restrict__ a,
                                      size_t a_len,
                                      const float *__restrict__ b,
                                      size_t b_len, float *c, size_t c_len)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= c_len)
		return;
	if (i >= a_len)
		__trap();
	if (i >= b_len)
		__trap();
	c[i] = a[i] + b[i];
}
