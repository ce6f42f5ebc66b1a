/* tests/emu/kernels.c: hand-written kernels for the emulator tests, built
 * into a shared object the way `oxidec --target=host` output is: each
 * kernel is __oxide_launch_<name>(void **args), args[i] pointing at the
 * i-th parameter; the device primitives are the emulator's __oxide_host_*
 * functions, which the test program exports (-rdynamic).
 * The "shared memory" of a block is the part of a global buffer the block
 * owns, except for the Hopper kernels (mbarriers, bulk and TMA copies,
 * wgmma), which use the launch's dynamic shared memory as their GPU
 * versions must, and the cluster kernels at the end, which read each
 * other's dynamic shared memory through mapa. Built by tests/emu/run.sh into
 * build/emu/test_kernels.so. */
#include "../../src/runtime/oxide_host_abi.h"

#include <stddef.h>

const char __oxide_kernels[] = "reverse\0reduce\0early_exit\0trap_at\0"
                               "indices\0warp_ops\0named_partial\0"
                               "named_hang\0named_bad\0assert_at\0"
                               "deep_stack\0mbar_pipe\0tma_box\0wgmma_run\0"
                               "elect\0mbar_hang\0smem_outside\0wg_wait\0"
                               "cl_phases\0cl_regs\0cl_wait_alone\0cl_arrive_twice\0"
                               "cl_mapa_exited\0cl_mapa_global\0cl_hang\0cl_stale\0cl_last\0tma_misuse\0"
                               "cl_arrive_far\0scale_add\0";

static unsigned block_threads(void)
{
	return __oxide_host_ntid_x() * __oxide_host_ntid_y() *
	       __oxide_host_ntid_z();
}

static unsigned thread_index(void)
{
	return __oxide_host_tid_x() + __oxide_host_ntid_x() *
	       (__oxide_host_tid_y() + __oxide_host_ntid_y() *
	        __oxide_host_tid_z());
}

static unsigned block_index(void)
{
	return __oxide_host_ctaid_x() + __oxide_host_nctaid_x() *
	       (__oxide_host_ctaid_y() + __oxide_host_nctaid_y() *
	        __oxide_host_ctaid_z());
}

void __oxide_launch_reverse(void **args);
void __oxide_launch_reduce(void **args);
void __oxide_launch_early_exit(void **args);
void __oxide_launch_trap_at(void **args);
void __oxide_launch_indices(void **args);
void __oxide_launch_deep_stack(void **args);
void __oxide_launch_warp_ops(void **args);
void __oxide_launch_named_partial(void **args);
void __oxide_launch_named_hang(void **args);
void __oxide_launch_named_bad(void **args);
void __oxide_launch_assert_at(void **args);
void __oxide_launch_mbar_pipe(void **args);
void __oxide_launch_tma_box(void **args);
void __oxide_launch_wgmma_run(void **args);
void __oxide_launch_elect(void **args);
void __oxide_launch_mbar_hang(void **args);
void __oxide_launch_smem_outside(void **args);
void __oxide_launch_wg_wait(void **args);
void __oxide_launch_cl_phases(void **args);
void __oxide_launch_cl_regs(void **args);
void __oxide_launch_cl_wait_alone(void **args);
void __oxide_launch_cl_arrive_twice(void **args);
void __oxide_launch_cl_mapa_exited(void **args);
void __oxide_launch_cl_mapa_global(void **args);
void __oxide_launch_cl_arrive_far(void **args);
void __oxide_launch_cl_hang(void **args);
void __oxide_launch_cl_stale(void **args);
void __oxide_launch_cl_last(void **args);
void __oxide_launch_tma_misuse(void **args);
void __oxide_launch_scale_add(void **args);

/* scale_add(in: *u32, out: *u32, k: u32): out[i] = 3 in[i] + k, i the
 * thread's global index (the stream test's kernel, which reads its input). */
void __oxide_launch_scale_add(void **args)
{
	const unsigned *in = *(const unsigned **)args[0];
	unsigned *out = *(unsigned **)args[1], k = *(unsigned *)args[2];
	unsigned i = block_index() * block_threads() + thread_index();

	out[i] = 3 * in[i] + k;
}

/* named_partial(tmp: *u32, out: *u32), blocks of 112 threads (the fourth
 * warp has 16 lanes): lane 31 of warps 1 and 2 returns at once; the
 * others write tmp[t] = 5 t + 1, wait at barrier 1 for 128 threads (four
 * warps: the hardware counts a warp as 32 threads once its live lanes
 * arrived) and read tmp[(t + 40) % 112]. */
void __oxide_launch_named_partial(void **args)
{
	unsigned *tmp = *(unsigned **)args[0], *out = *(unsigned **)args[1];
	unsigned n = block_threads(), t = thread_index();
	unsigned base = block_index() * n;

	if (t == 63 || t == 95)
		return;
	tmp[base + t] = 5 * t + 1;
	__oxide_host_barrier_sync_count(1, 128);
	out[base + t] = tmp[base + (t + 40) % n];
}

/* named_hang(tmp, out), blocks of 128: the first two warps wait at
 * barrier 2 for 128 threads, the other two return (a GPU hangs). */
void __oxide_launch_named_hang(void **args)
{
	(void)args;
	if (thread_index() < 64)
		__oxide_host_barrier_sync_count(2, 128);
}

/* named_bad(tmp, out): barrier 16 does not exist. */
void __oxide_launch_named_bad(void **args)
{
	(void)args;
	__oxide_host_barrier_arrive_count(16, 64);
}

/* assert_at(tmp, out): thread 3 of block 1 fails an assertion. */
void __oxide_launch_assert_at(void **args)
{
	unsigned *out = *(unsigned **)args[1];

	if (block_index() == 1 && thread_index() == 3)
		__oxide_host_assertfail("x < 3", "kernels.rs", 42, "kernels");
	out[block_index() * block_threads() + thread_index()] = 1;
}

/* warp_ops(out: *u32): lanes 3, 7, 11, ... return at once; the others
 * shuffle from lane 0, ballot their oddness and count themselves (redux)
 * with a member mask without the returned lanes; out[3 * thread + k]. A
 * block of 40 threads has a partial second warp. */
void __oxide_launch_warp_ops(void **args)
{
	unsigned *out = *(unsigned **)args[0];
	unsigned n = block_threads(), t = thread_index();
	unsigned w = t / 32, size = n - w * 32 < 32 ? n - w * 32 : 32;
	unsigned lanes = size == 32 ? 0xffffffffu : (1u << size) - 1;
	unsigned mask = lanes & ~0x88888888u, *o = out + 3 * (block_index() * n + t);

	if (t % 4 == 3)
		return;
	o[0] = __oxide_host_shfl_idx(mask, t * 10, 0, 0x1f);
	o[1] = __oxide_host_vote_ballot(mask, t % 2);
	o[2] = __oxide_host_redux_add(mask, 1);
}

/* reverse(tmp: *u32, out: *u32): out[t] = tmp[n-1-t] after every thread
 * of the block wrote its tmp[t]; without a working barrier thread 0
 * reads tmp[n-1] before thread n-1 wrote it. */
void __oxide_launch_reverse(void **args)
{
	unsigned *tmp = *(unsigned **)args[0], *out = *(unsigned **)args[1];
	unsigned n = block_threads(), t = thread_index();
	unsigned base = block_index() * n;

	tmp[base + t] = base + t * 7 + 1;
	__oxide_host_barrier_sync();
	out[base + t] = tmp[base + n - 1 - t];
}

/* reduce(tmp: *u32, out: *u32): a tree sum with a barrier per level, as
 * a shared-memory reduction does it; out[block] = sum of 1..n. */
void __oxide_launch_reduce(void **args)
{
	unsigned *tmp = *(unsigned **)args[0], *out = *(unsigned **)args[1];
	unsigned n = block_threads(), t = thread_index();
	unsigned *s = tmp + block_index() * n;

	s[t] = t + 1;
	__oxide_host_barrier_sync();
	for (unsigned half = n / 2; half > 0; half /= 2) {
		if (t < half)
			s[t] += s[t + half];
		__oxide_host_barrier_sync();
	}
	if (t == 0)
		out[block_index()] = s[0];
}

/* early_exit(tmp: *u32, out: *u32): odd threads return at once; the even
 * ones pass two barriers (exited threads do not hold them up) and read
 * their even neighbour's value. */
void __oxide_launch_early_exit(void **args)
{
	unsigned *tmp = *(unsigned **)args[0], *out = *(unsigned **)args[1];
	unsigned n = block_threads(), t = thread_index();
	unsigned base = block_index() * n;

	if (t % 2 == 1)
		return;
	tmp[base + t] = t * 3;
	__oxide_host_barrier_sync();
	out[base + t] = tmp[base + (t + 2) % n];
	__oxide_host_barrier_sync();
	out[base + t] += 1;
}

/* trap_at(block: u32, thread: u32, out: *u32): that thread traps after
 * the block's first barrier, while the others wait at the second. */
void __oxide_launch_trap_at(void **args)
{
	unsigned b = *(unsigned *)args[0], th = *(unsigned *)args[1];
	unsigned *out = *(unsigned **)args[2];
	unsigned n = block_threads(), t = thread_index();

	out[block_index() * n + t] = 1;
	__oxide_host_barrier_sync();
	if (block_index() == b && t == th)
		__oxide_host_trap();
	__oxide_host_barrier_sync();
	out[block_index() * n + t] = 2;
}

/* indices(out: *u32): eight words per thread: tid, ntid... of x y z and
 * ctaid, nctaid of x (y and z through the linear indices). */
void __oxide_launch_indices(void **args)
{
	unsigned *out = *(unsigned **)args[0];
	unsigned *o = out + 8 * ((size_t)block_index() * block_threads() +
	                         thread_index());

	o[0] = __oxide_host_tid_x();
	o[1] = __oxide_host_tid_y();
	o[2] = __oxide_host_tid_z();
	o[3] = __oxide_host_ctaid_x();
	o[4] = __oxide_host_ctaid_y();
	o[5] = __oxide_host_ctaid_z();
	o[6] = block_threads();
	o[7] = __oxide_host_nctaid_x() * __oxide_host_nctaid_y() *
	       __oxide_host_nctaid_z();
}

/* A recursion with 4 KiB frames, `depth` deep: more than the fibers'
 * default 256 KiB of stack when depth is 128. */
__attribute__((noinline))
static unsigned deep(unsigned depth, unsigned seed)
{
	volatile unsigned char frame[4096];
	unsigned sum;

	for (unsigned i = 0; i < sizeof frame; i += 512)
		frame[i] = (unsigned char)(seed + i);
	sum = depth ? deep(depth - 1, seed * 3 + 1) : 0;
	for (unsigned i = 0; i < sizeof frame; i += 512)
		sum += frame[i];
	return sum;
}

/* deep_stack(depth: u32, out: *u32): out[thread] = deep(depth, thread). */
void __oxide_launch_deep_stack(void **args)
{
	unsigned depth = *(unsigned *)args[0];
	unsigned *out = *(unsigned **)args[1];
	unsigned t = thread_index();

	out[t] = deep(depth, t);
}

/* ---- Hopper: mbarriers, bulk and TMA copies, elect.sync, wgmma ---- */

enum { PIPE_ROUNDS = 6, PIPE_WORDS = 64 };

/* The producer's round r: wait until stage s is free, expect its 256
 * bytes on full[s] and copy them in two bulk copies; flags[2 r] says
 * whether full[s]'s phase completed after the first (it must not: 128
 * bytes are pending), flags[2 r + 1] after the second (it must). */
static void pipe_produce(unsigned r, unsigned char *smem, const unsigned *src, unsigned *flags)
{
	unsigned s = r % 2, parity = r / 2 % 2;
	void *full = smem + 512 + 8 * s, *empty = smem + 528 + 8 * s;
	unsigned char *stage = smem + 256 * s;

	while (__oxide_host_mbarrier_try_wait_parity(empty, parity ^ 1) == 0)
		;
	if (!__oxide_host_elect_sync(0xffffffffu))
		return;
	__oxide_host_mbarrier_arrive_expect_tx(full, 256);
	__oxide_host_bulk_copy_g2s(stage, (void *)(src + r * PIPE_WORDS), 128, full);
	flags[2 * r] = __oxide_host_mbarrier_try_wait_parity(full, parity);
	__oxide_host_bulk_copy_g2s(stage + 128, (void *)(src + r * PIPE_WORDS + 32), 128, full);
	flags[2 * r + 1] = __oxide_host_mbarrier_try_wait_parity(full, parity);
}

/* mbar_pipe(src: *u32, out: *u32), one block of 64 threads, 544 bytes of
 * dynamic shared memory (two stages of 256 bytes, full[2] at 512,
 * empty[2] at 528): warp 1 produces PIPE_ROUNDS rounds of 64 words
 * through the two stages, warp 0 consumes them into out[64 r + i]; then
 * the producer's flags at out[64 PIPE_ROUNDS]. The stages start
 * poisoned: a consumer that does not wait reads 0xdeadbeef. */
void __oxide_launch_mbar_pipe(void **args)
{
	const unsigned *src = *(unsigned **)args[0];
	unsigned *out = *(unsigned **)args[1];
	unsigned char *smem = __oxide_host_dynamic_shared();
	unsigned t = thread_index(), lane = t % 32;

	if (t == 0) {
		for (unsigned i = 0; i < 128; i++)
			((unsigned *)smem)[i] = 0xdeadbeefu;
		for (unsigned s = 0; s < 2; s++) {
			__oxide_host_mbarrier_init(smem + 512 + 8 * s, 1);
			__oxide_host_mbarrier_init(smem + 528 + 8 * s, 32);
		}
		__oxide_host_fence_mbarrier_init();
	}
	__oxide_host_barrier_sync();
	for (unsigned r = 0; r < PIPE_ROUNDS; r++) {
		unsigned s = r % 2;
		const unsigned *stage = (const unsigned *)(smem + 256 * s);

		if (t >= 32) {
			pipe_produce(r, smem, src, out + PIPE_ROUNDS * PIPE_WORDS);
			continue;
		}
		while (__oxide_host_mbarrier_try_wait_parity(smem + 512 + 8 * s, r / 2 % 2) == 0)
			;
		out[r * PIPE_WORDS + lane] = stage[lane];
		out[r * PIPE_WORDS + lane + 32] = stage[lane + 32];
		__oxide_host_mbarrier_arrive(smem + 528 + 8 * s);
	}
}

/* tma_box(map: *u8, x: i32, y: i32, out: *u8, bytes: u32), one block of
 * 32 threads, bytes + 8 of dynamic shared memory: thread 0 loads the box
 * at (x, y) of the tensor map (bytes of it) at the start of dynamic
 * shared memory, which starts poisoned (0xab); everyone waits for it and
 * copies the raw bytes out. */
void __oxide_launch_tma_box(void **args)
{
	void *map = *(void **)args[0];
	int x = *(int *)args[1], y = *(int *)args[2];
	unsigned char *out = *(unsigned char **)args[3];
	unsigned bytes = *(unsigned *)args[4];
	unsigned char *smem = __oxide_host_dynamic_shared();
	void *bar = smem + bytes;
	unsigned t = thread_index();

	if (t == 0) {
		for (unsigned i = 0; i < bytes; i++)
			smem[i] = 0xab;
		__oxide_host_mbarrier_init(bar, 1);
		__oxide_host_fence_mbarrier_init();
	}
	__oxide_host_barrier_sync();
	if (t == 0) {
		__oxide_host_mbarrier_arrive_expect_tx(bar, bytes);
		__oxide_host_tma_load_2d(smem, map, x, y, bar);
	}
	while (__oxide_host_mbarrier_try_wait_parity(bar, 0) == 0)
		;
	for (unsigned i = t; i < bytes; i += 32)
		out[i] = smem[i];
}

/* wgmma_run(img: *u8, bytes: u32, steps: *u64, nsteps: u32, out: *f32),
 * one block of 128 threads (a warpgroup), `bytes` of dynamic shared
 * memory: the image img is copied into dynamic shared memory; then
 * wgmma m64n64k16 runs nsteps times, step i with steps[3 i] and
 * steps[3 i + 1] as the descriptors of A and B, their start addresses
 * relative to the start of dynamic shared memory, and steps[3 i + 2] as
 * scale_d; thread t's 32 accumulators go to out[32 t + i]. They start as
 * NaN: the first step must have scale_d 0. */
void __oxide_launch_wgmma_run(void **args)
{
	const unsigned char *img = *(unsigned char **)args[0];
	unsigned bytes = *(unsigned *)args[1];
	const unsigned long long *steps = *(unsigned long long **)args[2];
	unsigned nsteps = *(unsigned *)args[3];
	float *out = *(float **)args[4];
	unsigned char *smem = __oxide_host_dynamic_shared();
	unsigned t = thread_index();
	unsigned long long base = __oxide_host_smem_addr(smem) >> 4;
	float d[32];

	for (unsigned i = t; i < bytes; i += 128)
		smem[i] = img[i];
	for (unsigned i = 0; i < 32; i++)
		d[i] = __builtin_nanf("");
	__oxide_host_barrier_sync();
	__oxide_host_fence_proxy_async_shared();
	__oxide_host_wgmma_fence();
	for (unsigned i = 0; i < nsteps; i++)
		__oxide_host_wgmma_m64n64k16_f32_bf16(d, steps[3 * i] + base, steps[3 * i + 1] + base,
		                                      (unsigned)steps[3 * i + 2]);
	__oxide_host_wgmma_commit_group();
	__oxide_host_wgmma_wait_group_0();
	for (unsigned i = 0; i < 32; i++)
		out[32 * t + i] = d[i];
}

/* elect(out: *u32), one block of 64: lanes 0..3 of warp 0 return at
 * once; the rest elect one of warp 0's lanes 4..31 and one of warp 1
 * (out[t] = 1 + elected), then lanes 8..15 of warp 1 one of them
 * (out[64 + t]). */
void __oxide_launch_elect(void **args)
{
	unsigned *out = *(unsigned **)args[0];
	unsigned t = thread_index(), lane = t % 32;

	if (t < 4)
		return;
	out[t] = 1 + __oxide_host_elect_sync(t < 32 ? 0xfffffff0u : 0xffffffffu);
	if (t >= 32 && lane >= 8 && lane < 16)
		out[64 + t] = 1 + __oxide_host_elect_sync(0x0000ff00u);
}

/* mbar_hang(out: *u32), blocks of 64, 8 bytes of dynamic shared memory:
 * an mbarrier of count 2 gets one arrival, and every thread waits for
 * its phase: a GPU hangs. */
void __oxide_launch_mbar_hang(void **args)
{
	void *bar = __oxide_host_dynamic_shared();

	(void)args;
	if (thread_index() == 0)
		__oxide_host_mbarrier_init(bar, 2);
	__oxide_host_barrier_sync();
	if (thread_index() == 0)
		__oxide_host_mbarrier_arrive(bar);
	while (__oxide_host_mbarrier_try_wait_parity(bar, 0) == 0)
		;
}

/* smem_outside(out: *u32): the shared address of global memory. */
void __oxide_launch_smem_outside(void **args)
{
	unsigned *out = *(unsigned **)args[0];

	out[thread_index()] = __oxide_host_smem_addr(out);
}

/* wg_wait(out: *u32), one block: each thread sets its flag out[t], then
 * passes wgmma_wait_group_1 and counts the flags of its warpgroup into
 * out[256 + t]: every thread of the warpgroup is in before any passes. */
void __oxide_launch_wg_wait(void **args)
{
	unsigned *out = *(unsigned **)args[0];
	unsigned t = thread_index(), n = block_threads(), g = t / 128 * 128, count = 0;

	out[t] = 1;
	__oxide_host_wgmma_wait_group_1();
	for (unsigned i = g; i < g + 128 && i < n; i++)
		count += out[i];
	out[256 + t] = count;
}

/* ---- thread-block clusters: launched with ox_launch_cluster; the
 * shared memory is the launch's dynamic shared memory (one per block) ---- */

/* cl_phases(out: *u32), clusters of 4 blocks of 64 threads, 256 bytes of
 * dynamic shared memory: in each of 3 rounds every thread writes its slot
 * (round, rank, t), syncs the cluster, reads slot t of the next rank
 * through mapa and counts it in out[block * 64 + t] when right, and syncs
 * again before the next round's writes. Odd threads do their read's
 * mapa between their arrival and their wait (split phases); threads 48..
 * of rank 3 return at once, and the others skip their slots. */
void __oxide_launch_cl_phases(void **args)
{
	unsigned *out = *(unsigned **)args[0];
	unsigned *slot = __oxide_host_dynamic_shared();
	unsigned t = thread_index(), rank = __oxide_host_cluster_ctarank();
	unsigned n = __oxide_host_cluster_nctarank(), next = (rank + 1) % n;
	unsigned *theirs;

	if (rank == 3 && t >= 48)
		return;
	out[block_index() * 64 + t] = 0;
	for (unsigned k = 0; k < 3; k++) {
		slot[t] = k * 1000 + rank * 100 + t;
		__oxide_host_barrier_cluster_arrive();
		theirs = __oxide_host_mapa(slot, next);
		__oxide_host_barrier_cluster_wait();
		if (next != 3 || t < 48)
			out[block_index() * 64 + t] += theirs[t] == k * 1000 + next * 100 + t;
		else
			out[block_index() * 64 + t] += 1;
		__oxide_host_barrier_cluster_arrive();
		__oxide_host_barrier_cluster_wait();
	}
}

/* cl_regs(out: *u32): thread 0 of each block writes 12 words: ctarank,
 * nctarank, cluster ctaid x y z, cluster nctaid x y z, clusterid x y z,
 * is_explicit_cluster; then nclusterid x y z in words 12..14. */
void __oxide_launch_cl_regs(void **args)
{
	unsigned *out = *(unsigned **)args[0] + block_index() * 16;

	if (thread_index() != 0)
		return;
	out[0] = __oxide_host_cluster_ctarank();
	out[1] = __oxide_host_cluster_nctarank();
	out[2] = __oxide_host_cluster_ctaid_x();
	out[3] = __oxide_host_cluster_ctaid_y();
	out[4] = __oxide_host_cluster_ctaid_z();
	out[5] = __oxide_host_cluster_nctaid_x();
	out[6] = __oxide_host_cluster_nctaid_y();
	out[7] = __oxide_host_cluster_nctaid_z();
	out[8] = __oxide_host_clusterid_x();
	out[9] = __oxide_host_clusterid_y();
	out[10] = __oxide_host_clusterid_z();
	out[11] = __oxide_host_is_explicit_cluster();
	out[12] = __oxide_host_nclusterid_x();
	out[13] = __oxide_host_nclusterid_y();
	out[14] = __oxide_host_nclusterid_z();
}

/* cl_wait_alone(out): waits without arriving (undefined on a GPU). */
void __oxide_launch_cl_wait_alone(void **args)
{
	(void)args;
	__oxide_host_barrier_cluster_wait();
}

/* cl_arrive_twice(out): arrives twice without a wait (undefined). */
void __oxide_launch_cl_arrive_twice(void **args)
{
	(void)args;
	__oxide_host_barrier_cluster_arrive();
	__oxide_host_barrier_cluster_arrive();
}

/* cl_mapa_exited(out), clusters of 2: rank 1 returns at once; rank 0
 * syncs the cluster (which no longer waits for rank 1) and maps its
 * shared memory to rank 1's, which is gone. */
void __oxide_launch_cl_mapa_exited(void **args)
{
	unsigned *out = *(unsigned **)args[0];

	if (__oxide_host_cluster_ctarank() == 1)
		return;
	__oxide_host_barrier_cluster_arrive();
	__oxide_host_barrier_cluster_wait();
	out[thread_index()] = *(unsigned *)__oxide_host_mapa(__oxide_host_dynamic_shared(), 1);
}

/* cl_arrive_far(out), clusters of 2, 8 bytes of dynamic shared memory:
 * each block's thread 0 initialises its mbarrier, then, after the
 * cluster barrier, arrives on the one of block rank 2, which the cluster
 * does not have (undefined). */
void __oxide_launch_cl_arrive_far(void **args)
{
	void *bar = __oxide_host_dynamic_shared();

	(void)args;
	if (thread_index() == 0)
		__oxide_host_mbarrier_init(bar, 1);
	__oxide_host_barrier_cluster_arrive();
	__oxide_host_barrier_cluster_wait();
	if (thread_index() == 0)
		__oxide_host_mbarrier_arrive_cluster(bar, 2);
}

/* cl_mapa_global(out): mapa of a global pointer (undefined). */
void __oxide_launch_cl_mapa_global(void **args)
{
	unsigned *out = *(unsigned **)args[0];

	out[thread_index()] = *(unsigned *)__oxide_host_mapa(out, 0);
}

/* cl_hang(out), clusters of 2: in each block thread 0 arrives and waits
 * for the cluster while the others wait at bar.sync for thread 0: a GPU
 * hangs. */
void __oxide_launch_cl_hang(void **args)
{
	(void)args;
	if (thread_index() == 0) {
		__oxide_host_barrier_cluster_arrive();
		__oxide_host_barrier_cluster_wait();
	}
	__oxide_host_barrier_sync();
}

/* cl_stale(out), clusters of 2: every thread maps its slot to rank 1's,
 * syncs the cluster, and rank 0 reads through the pointer while rank 1
 * may have returned: the missing final cluster sync (the emulator runs
 * rank 1 to its end before rank 0 goes on). */
void __oxide_launch_cl_stale(void **args)
{
	unsigned *out = *(unsigned **)args[0];
	unsigned *slot = __oxide_host_dynamic_shared();
	volatile unsigned *theirs = __oxide_host_mapa(slot, 1);

	slot[thread_index()] = thread_index();
	__oxide_host_barrier_cluster_arrive();
	__oxide_host_barrier_cluster_wait();
	if (__oxide_host_cluster_ctarank() == 0)
		out[thread_index()] = theirs[thread_index()];
}

/* cl_last(out), clusters of 2 blocks of 64, 256 bytes of dynamic shared
 * memory: every thread writes its slot, syncs the cluster, and counts in
 * out[block * 64 + t] its neighbour's slot in its own block and its slot
 * in the other block when right (2): the barrier must wait for the very
 * last arrival (thread 63 of rank 1, which starts after the others of its
 * block wait). */
void __oxide_launch_cl_last(void **args)
{
	unsigned *out = *(unsigned **)args[0];
	unsigned *slot = __oxide_host_dynamic_shared();
	unsigned t = thread_index(), rank = __oxide_host_cluster_ctarank(), u = (t + 1) % 64;
	unsigned *theirs = __oxide_host_mapa(slot, rank ^ 1);

	slot[t] = 7 * t + rank;
	__oxide_host_barrier_cluster_arrive();
	__oxide_host_barrier_cluster_wait();
	out[block_index() * 64 + t] = (slot[u] == 7 * u + rank) + (theirs[t] == 7 * t + (rank ^ 1));
	__oxide_host_barrier_cluster_arrive();
	__oxide_host_barrier_cluster_wait();
}

/* tma_misuse(map: TensorMap by value, mode: u32), 32 threads, 2048 bytes
 * of dynamic shared memory: thread 0 misuses TMA, which fails the launch.
 * mode 0: a 3-D load with the map; 1: a 2-D store from a shared box that
 * is not 128-byte aligned; 2: a 2-D load whose map is shared memory, not
 * a tensor map; 3: a 2-D store with the map; 4: a 2-D multicast load to
 * CTAs 0 and 1; 5: a 2-D load at 1792 bytes, past the end of dynamic
 * shared memory for the box of 256 bytes; 6: a 2-D store at x = 4 (byte 8
 * of a row, not a multiple of 16). */
void __oxide_launch_tma_misuse(void **args)
{
	void *map = args[0];
	unsigned mode = *(unsigned *)args[1];
	unsigned char *smem = __oxide_host_dynamic_shared();
	void *bar = smem + 1024;

	if (thread_index() != 0)
		return;
	__oxide_host_mbarrier_init(bar, 1);
	if (mode == 0)
		__oxide_host_tma_load_3d(smem, map, 0, 0, 0, bar);
	else if (mode == 1)
		__oxide_host_tma_store_2d(map, 0, 0, smem + 16);
	else if (mode == 2)
		__oxide_host_tma_load_2d(smem, smem + 512, 0, 0, bar);
	else if (mode == 3)
		__oxide_host_tma_store_2d(map, 0, 0, smem);
	else if (mode == 4)
		__oxide_host_tma_load_multicast_2d(smem, map, 0, 0, bar, 3);
	else if (mode == 5)
		__oxide_host_tma_load_2d(smem + 1792 + 128, map, 0, 0, bar);
	else
		__oxide_host_tma_store_2d(map, 4, 0, smem);
}
