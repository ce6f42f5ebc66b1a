/* bench/cas/cas_ref.cu: the CUDA C twins of examples/cas_contention: every
 * thread adds 1 to c[0], by a compare-exchange loop (a relaxed load, then
 * compare_exchange_weak / atomicCAS until its +1 lands) or by one
 * fetch_add. The launched kernels (bench/cas/cas.c) are ref_cas_atomiccas
 * (atomicCAS: relaxed, device scope), ref_cas_relaxed, ref_cas_acqrel
 * (acq_rel / relaxed, examples/histogram's pair), ref_cas_seqcst,
 * ref_add_relaxed (the floor) and ref_sys_cas_acqrel (cuda::atomic_ref at
 * thread_scope_system). The r_* kernels are the static table of
 * BENCHMARKS.md, one per scope (block, device, system) and ordering, as
 * the Rust f_* kernels. Parameters as the Rust kernels': the counter
 * slice's pointer and length.
 * nvcc -O3 -arch=sm_90 -cubin -o cas_ref.cubin cas_ref.cu */
#include <cuda/atomic>

#define R cuda::std::memory_order_relaxed
#define ACQ cuda::std::memory_order_acquire
#define REL cuda::std::memory_order_release
#define AR cuda::std::memory_order_acq_rel
#define SC cuda::std::memory_order_seq_cst

template <cuda::thread_scope S>
__device__ __forceinline__ void cas_loop(unsigned *p, cuda::std::memory_order ok,
                                         cuda::std::memory_order fail)
{
	cuda::atomic_ref<unsigned, S> c(*p);
	unsigned cur = c.load(R);
	while (!c.compare_exchange_weak(cur, cur + 1, ok, fail))
		;
}

#define DEV cuda::thread_scope_device
#define SYS cuda::thread_scope_system
#define CTA cuda::thread_scope_block

extern "C" __global__ void ref_cas_atomiccas(unsigned *c, unsigned long long n)
{
	(void)n;
	unsigned cur = cuda::atomic_ref<unsigned, DEV>(*c).load(R);
	for (;;) {
		unsigned seen = atomicCAS(c, cur, cur + 1);
		if (seen == cur)
			break;
		cur = seen;
	}
}

extern "C" __global__ void ref_cas_relaxed(unsigned *c, unsigned long long n) { (void)n; cas_loop<DEV>(c, R, R); }
extern "C" __global__ void ref_cas_acqrel(unsigned *c, unsigned long long n) { (void)n; cas_loop<DEV>(c, AR, R); }
extern "C" __global__ void ref_cas_seqcst(unsigned *c, unsigned long long n) { (void)n; cas_loop<DEV>(c, SC, SC); }
extern "C" __global__ void ref_sys_cas_acqrel(unsigned *c, unsigned long long n) { (void)n; cas_loop<SYS>(c, AR, R); }

extern "C" __global__ void ref_add_relaxed(unsigned *c, unsigned long long n)
{
	(void)n;
	cuda::atomic_ref<unsigned, DEV>(*c).fetch_add(1, R);
}

/* the static table: one CAS loop and one fetch_add per scope and ordering
 * (failure ordering: the success one without its release part) */
#define FORMS(scope, S, ord, O, F) \
	extern "C" __global__ void r_##scope##_##ord##_cas(unsigned *c, unsigned long long n) \
	{ (void)n; cas_loop<S>(c, O, F); } \
	extern "C" __global__ void r_##scope##_##ord##_add(unsigned *c, unsigned long long n) \
	{ (void)n; cuda::atomic_ref<unsigned, S>(*c).fetch_add(1, O); }
#define SCOPE(scope, S) \
	FORMS(scope, S, relaxed, R, R) FORMS(scope, S, acquire, ACQ, ACQ) \
	FORMS(scope, S, release, REL, R) FORMS(scope, S, acqrel, AR, ACQ) \
	FORMS(scope, S, seqcst, SC, SC)
SCOPE(gpu, DEV)
SCOPE(cta, CTA)
SCOPE(sys, SYS)

/* CUDA's scoped intrinsics (relaxed): atomicCAS / atomicAdd and their
 * _block / _system forms */
#define INTRIN(name, cas, add) \
	extern "C" __global__ void r_##name##_cas(unsigned *c, unsigned long long n) \
	{ (void)n; unsigned cur = *(volatile unsigned *)c, seen; \
	  while ((seen = cas(c, cur, cur + 1)) != cur) cur = seen; } \
	extern "C" __global__ void r_##name##_add(unsigned *c, unsigned long long n) \
	{ (void)n; add(c, 1u); }
INTRIN(atomic, atomicCAS, atomicAdd)
INTRIN(atomic_block, atomicCAS_block, atomicAdd_block)
INTRIN(atomic_system, atomicCAS_system, atomicAdd_system)
