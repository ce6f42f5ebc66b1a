// CUDA C twin of examples/tma_copy's tma_load / tma_store (same parameters)
#include <cuda.h>
#define SH(p) ((unsigned)__cvta_generic_to_shared(p))
static __device__ unsigned char *box_smem(unsigned char *raw)
{
	return raw + ((1024 - (SH(raw) & 1023)) & 1023);
}
extern "C" __global__ void tma_load(const __grid_constant__ CUtensorMap map, unsigned rank, const int *c,
                                    unsigned char *out, unsigned bytes, unsigned cta_mask)
{
	extern __shared__ __align__(16) unsigned char raw[];
	unsigned char *smem = box_smem(raw);
	unsigned sbox = SH(smem), sbar = SH(smem + bytes);
	if (threadIdx.x == 0) {
		for (unsigned i = 0; i < bytes; i++) smem[i] = 0xab;
		asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sbar));
		asm volatile("fence.mbarrier_init.release.cluster;");
		asm volatile("fence.proxy.async.shared::cta;");
	}
	__syncthreads();
	if (threadIdx.x == 0) {
		const void *m = &map;
		int x = c[0], y = c[1], z = c[2], w = c[3], v = c[4];
		asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sbar), "r"(bytes));
		switch (rank) {
		case 1: asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];" ::"r"(sbox), "l"(m), "r"(x), "r"(sbar) : "memory"); break;
		case 2: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(sbox), "l"(m), "r"(x), "r"(y), "r"(sbar) : "memory"); break;
		case 3: asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(sbox), "l"(m), "r"(x), "r"(y), "r"(z), "r"(sbar) : "memory"); break;
		case 4: asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(sbox), "l"(m), "r"(x), "r"(y), "r"(z), "r"(w), "r"(sbar) : "memory"); break;
		default: asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];" ::"r"(sbox), "l"(m), "r"(x), "r"(y), "r"(z), "r"(w), "r"(v), "r"(sbar) : "memory"); break;
		}
	}
	unsigned done;
	do {
		asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }" : "=r"(done) : "r"(sbar) : "memory");
	} while (!done);
	for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) out[i] = smem[i];
}
extern "C" __global__ void tma_store(const __grid_constant__ CUtensorMap map, unsigned rank, const int *c,
                                     const unsigned char *input, unsigned bytes)
{
	extern __shared__ __align__(16) unsigned char raw[];
	unsigned char *smem = box_smem(raw);
	unsigned sbox = SH(smem);
	for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) smem[i] = input[i];
	asm volatile("fence.proxy.async.shared::cta;");
	__syncthreads();
	if (threadIdx.x == 0) {
		const void *m = &map;
		int x = c[0], y = c[1], z = c[2], w = c[3], v = c[4];
		switch (rank) {
		case 1: asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%1}], [%2];" ::"l"(m), "r"(x), "r"(sbox) : "memory"); break;
		case 2: asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(m), "r"(x), "r"(y), "r"(sbox) : "memory"); break;
		case 3: asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];" ::"l"(m), "r"(x), "r"(y), "r"(z), "r"(sbox) : "memory"); break;
		case 4: asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4}], [%5];" ::"l"(m), "r"(x), "r"(y), "r"(z), "r"(w), "r"(sbox) : "memory"); break;
		default: asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];" ::"l"(m), "r"(x), "r"(y), "r"(z), "r"(w), "r"(v), "r"(sbox) : "memory"); break;
		}
		asm volatile("cp.async.bulk.commit_group;");
		asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
	}
}
extern "C" __global__ void bulk_store(unsigned char *out, const unsigned char *in, unsigned bytes) {}
extern "C" __global__ void tma_multicast(const __grid_constant__ CUtensorMap map, unsigned rank, const int *c,
                                         unsigned char *out, unsigned bytes) {}
