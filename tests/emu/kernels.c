/* tests/emu/kernels.c: hand-written kernels for the emulator tests, built
 * into a shared object the way `oxidec --target=host` output is: each
 * kernel is __oxide_launch_<name>(void **args), args[i] pointing at the
 * i-th parameter; the device primitives are the emulator's __oxide_host_*
 * functions, which the test program exports (-rdynamic).
 * The "shared memory" of a block is the part of a global buffer the block
 * owns. Built by tests/emu/run.sh into build/emu/test_kernels.so. */
#include "../../src/runtime/oxide_host_abi.h"

#include <stddef.h>

const char __oxide_kernels[] = "reverse\0reduce\0early_exit\0trap_at\0"
                               "indices\0warp_ops\0named_partial\0"
                               "named_hang\0named_bad\0assert_at\0"
                               "deep_stack\0";

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
