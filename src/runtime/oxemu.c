/* oxemu.c: the host emulator backend of oxrt (oxbackend.h): runs the
 * kernels of `oxidec --target=host` modules (shared objects, opened with
 * dlopen) on the CPU, and defines the __oxide_host_* functions they call
 * (oxide_host_abi.h). Device memory is host memory, so a device pointer is
 * a host address. This file has launches, fibers, the scheduler, and the
 * special registers, bar.sync and traps of the running thread; the other
 * pieces of the emulator (oxemu_*.c, listed in oxemu_impl.h) the rest.
 *
 * A launch runs its clusters one after another, in the GPU's order (x
 * fastest); a launch without clusters has clusters of one block. The
 * blocks of a cluster run together, as the GPU keeps them resident
 * together: each is a Launch (its own scheduler, fibers and shared memory,
 * static and dynamic), run in turn until its threads wait for the
 * cluster's barrier or return (run_cluster; clusters: oxemu_sync.c).
 * The threads of a block are cooperative fibers (ucontext), so
 * bar.sync works: a thread that calls __oxide_host_barrier_sync() suspends, and
 * when every live thread of the block (started and not yet returned) waits,
 * all of them continue, in thread order. A thread that has returned does
 * not hold a barrier up.
 *
 * Fibers are not made per thread up front. A fiber runs threads one after
 * another, in thread order (x fastest), as plain calls of the kernel's
 * trampoline, until one of them waits at a barrier; then the scheduler
 * starts the next thread on another fiber. A kernel without barriers runs
 * each block on one fiber with two context switches; one in which every
 * thread waits needs a fiber (a stack) per thread of the block. Fibers are
 * reused by the blocks of a launch and freed at its end.
 *
 * The scheduler, per block (pick_fiber):
 *   1. resume the fibers a barrier released, in the order they arrived
 *      (which is thread order);
 *   2. else start the next thread, on an idle fiber or a new one;
 *   3. else resume the next thread spinning in an mbarrier try_wait, round
 *      robin, unless they all spun in vain for long: a hang (see the
 *      Hopper section, oxemu_hopper.c);
 *   4. else, unless threads wait for the cluster's barrier (then the block
 *      waits for the other blocks of its cluster), every live thread
 *      waits at the barrier: release them all;
 *   5. else the block is done.
 *
 * Warp-level operations (shuffle, vote, match, redux, bar.warp.sync: the
 * __oxide_host_shfl_* family, oxemu_sync.c) use the same scheme: the op
 * stores its operand in a slot of the thread's warp (warp = linear thread
 * index / 32) and the fiber waits, like at a barrier, in the group of its
 * warp's lanes that wait with the same member mask: lanes in divergent
 * branches pass disjoint masks, and each branch's operation completes on
 * its own. The lane that completes a group (every lane of its member mask
 * has arrived or returned) gives each lane of the group a copy of all
 * operands, makes them ready (they run before new threads start) and goes
 * on; each lane then computes its own result from its copy. Lanes start in
 * order, so a warp always completes before the block's barrier can
 * release.
 *
 * Named barriers (bar.sync / bar.arrive with an id and a thread count)
 * count warps like the hardware: a warp arrives when every lane of it that
 * has not returned did, and counts 32 threads. A sync waits in the
 * barrier's own list; the arrival that completes the count makes them
 * ready. Barrier 0 without a count (__oxide_host_barrier_sync) is separate. A
 * block whose threads can only wait at a named barrier that can no longer
 * complete would hang on a GPU; here its launch fails, saying so. The
 * warpgroup's rendezvous of wgmma.wait_group (4 consecutive warps) works
 * the same way.
 *
 * __oxide_host_trap() ends the launch: the trapping fiber switches back to
 * the scheduler for good, the other threads are abandoned (their stacks
 * are freed), and the next synchronizing call reports the trap like the
 * GPU does, as CUDA_ERROR_LAUNCH_FAILED, naming the block and the thread.
 * A failed device assert (__oxide_host_assertfail) prints CUDA's message
 * and traps the same way, reported as CUDA_ERROR_ASSERT.
 *
 * Stacks are mmap'd, STACK_BYTES each with a guard page below, registered
 * with valgrind and annotated for AddressSanitizer where those exist. A
 * program's ox_set_stack_size can only make them larger: host frames are
 * not the GPU's, so the GPU's stack limit is not emulated. The
 * emulator is not thread-safe (neither is oxrt); its per-thread state is
 * _Thread_local all the same, so a later version can run blocks on several
 * threads. */
#include "oxemu_impl.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef VALGRIND_STACK_REGISTER
#define VALGRIND_STACK_REGISTER(lo, hi) 0u
#define VALGRIND_STACK_DEREGISTER(id) ((void)(id))
#endif

#if defined(__SANITIZE_ADDRESS__)
#define OXEMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OXEMU_ASAN 1
#endif
#endif
#ifdef OXEMU_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#ifndef MAP_STACK
#define MAP_STACK 0
#endif

enum { STACK_BYTES = 256 << 10 };

size_t oxemu_stack_limit = 1024;

static struct sigaction old_segv;     /* SIGSEGV's handler before a guarded launch */

static const Where lone = {{0, 0, 0}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, 0};
_Thread_local Where oxemu_here = {{0, 0, 0}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, 0};
DynShared oxemu_dyn_shared;
_Thread_local Launch *oxemu_running;
PendingTrap oxemu_trap;

/* ------------------------------------------------------------ fibers */

static void asan_start(void **save, const void *bottom, size_t size)
{
#ifdef OXEMU_ASAN
	__sanitizer_start_switch_fiber(save, bottom, size);
#else
	(void)save, (void)bottom, (void)size;
#endif
}

static void asan_finish(void *save, const void **bottom, size_t *size)
{
#ifdef OXEMU_ASAN
	__sanitizer_finish_switch_fiber(save, bottom, size);
#else
	(void)save, (void)bottom, (void)size;
#endif
}

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* Back to the scheduler; returns when the scheduler resumes f (never
 * when dying). */
void oxemu_to_scheduler(Launch *l, Fiber *f, int dying)
{
	asan_start(dying ? NULL : &f->fake, l->sched_bottom, l->sched_size);
	swapcontext(&f->ctx, &l->sched);
	asan_finish(f->fake, &l->sched_bottom, &l->sched_size);
}

static void start_thread(Fiber *f, unsigned t)
{
	OxDim3 b = oxemu_here.ntid;

	f->tid.x = t % b.x;
	f->tid.y = t / b.x % b.y;
	f->tid.z = t / (b.x * b.y);
	f->lin = t;
	f->nacp = f->committed = 0;   /* what the last thread left pending is dropped */
	oxemu_here.tid = f->tid;
}

/* Every fiber runs this: threads while there are unstarted ones, then it
 * waits on the idle list until the scheduler needs it again. */
static void fiber_main(void)
{
	Launch *l = oxemu_running;
	Fiber *f = l->cur;

	asan_finish(NULL, &l->sched_bottom, &l->sched_size);
	for (;;) {
		while (l->next < l->nthreads) {
			start_thread(f, l->next++);
			l->entry(l->args);
			oxemu_warp_returned(l, f->lin);
			oxemu_cluster_returned(l, f->lin);
		}
		l->idle[l->nidle++] = f;
		oxemu_to_scheduler(l, f, 0);
	}
}

/* getcontext may return twice (it never does here: the context is only
 * makecontext'd); kept apart so the caller's variables need no volatile. */
__attribute__((noinline))
static void save_context(ucontext_t *c)
{
	getcontext(c);
}

/* A fiber's stack: STACK_BYTES, or the program's limit when larger, in
 * whole pages. */
static size_t fiber_stack_bytes(void)
{
	size_t page = page_size();
	size_t want = oxemu_stack_limit > STACK_BYTES ? oxemu_stack_limit : STACK_BYTES;

	return (want + page - 1) / page * page;
}

static Fiber *new_fiber(Launch *l)
{
	size_t page = page_size();
	Fiber *f = calloc(1, sizeof *f);

	if (f == NULL) {
		l->failed = 1;
		return NULL;
	}
	f->map_len = fiber_stack_bytes() + page;
	f->map = mmap(NULL, f->map_len, PROT_READ | PROT_WRITE,
	              MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (f->map == MAP_FAILED) {
		free(f);
		l->failed = 1;
		return NULL;
	}
	(void)mprotect(f->map, page, PROT_NONE);
	f->vg_id = VALGRIND_STACK_REGISTER(f->map + page, f->map + f->map_len);
	save_context(&f->ctx);
	f->ctx.uc_stack.ss_sp = f->map + page;
	f->ctx.uc_stack.ss_size = f->map_len - page;
	f->ctx.uc_link = NULL;
	makecontext(&f->ctx, fiber_main, 0);
	l->all[l->nall++] = f;
	return f;
}

static void free_fiber(Fiber *f)
{
	VALGRIND_STACK_DEREGISTER(f->vg_id);
#ifdef OXEMU_ASAN
	ASAN_UNPOISON_MEMORY_REGION(f->map + page_size(),
	                            f->map_len - page_size());
#endif
	munmap(f->map, f->map_len);
	free(f);
}

static void resume(Launch *l, Fiber *f)
{
	size_t page = page_size();

	l->cur = f;
	oxemu_here.tid = f->tid;
	asan_start(&l->sched_fake, f->map + page, f->map_len - page);
	swapcontext(&l->sched, &f->ctx);
	asan_finish(l->sched_fake, NULL, NULL);
}

/* ---------------------------------------------------------- scheduler */

/* The next spinning thread, round robin; NULL when they all spun
 * SPIN_ROUNDS times in vain (no mbarrier changed meanwhile).  In a
 * cluster of several blocks another block may be what completes the
 * phase (a multicast copy, a remote arrive): after two rounds the block
 * lets the others run (block_step, run_cluster). */
static Fiber *next_spinner(Launch *l)
{
	Fiber *f;
	unsigned rounds = l->cluster->n > 1 ? 2 : SPIN_ROUNDS;

	if (l->mbar_events != l->spin_seen) {
		l->spin_seen = l->mbar_events;
		l->spin_idle = 0;
	}
	if (l->spin_idle++ >= (unsigned long long)rounds * l->nspin)
		return NULL;
	f = l->spin[l->spin_at];
	l->spin_at = (l->spin_at + 1) % l->nthreads;
	l->nspin--;
	return f;
}

static Fiber *pick_fiber(Launch *l)
{
	Fiber **t;

	if (l->ready_at < l->nready)
		return l->ready[l->ready_at++];
	if (l->next < l->nthreads)
		return l->nidle > 0 ? l->idle[--l->nidle] : new_fiber(l);
	if (l->nspin > 0)             /* bar.sync waits for them too */
		return next_spinner(l);
	if (l->nwait == 0 || l->ncwait > 0)   /* ncwait: the block waits for its cluster */
		return NULL;
	l->bar_result = l->bar_count; /* bar.red's answer, read on resuming */
	l->bar_live = l->nwait;
	l->bar_count = 0;
	t = l->ready;                 /* release the barrier */
	l->ready = l->wait;
	l->wait = t;
	l->nready = l->nwait;
	l->nwait = 0;
	l->ready_at = 0;
	return l->ready[l->ready_at++];
}

void oxemu_named_reset(NamedBarrier *nb)
{
	memset(nb->lanes, 0, sizeof nb->lanes);
	nb->counted = 0;
	nb->threads = 0;
	nb->nwaiting = 0;
}

/* Nothing can run, yet threads wait at a named barrier: a GPU would hang.
 * Fails the launch, naming the barrier; 0 when nothing waits. */
static int named_hang(Launch *l)
{
	for (unsigned id = 0; id < NAMED_BARRIERS; id++) {
		NamedBarrier *nb = &l->named[id];

		if (nb->nwaiting == 0)
			continue;
		l->trapped = STOP_ERROR;
		l->trap_block = oxemu_here.ctaid;
		l->trap_thread = nb->waiting[0]->tid;
		snprintf(l->trap_why, sizeof l->trap_why, "it would hang on a "
		         "GPU: %u threads wait forever at named barrier %u, "
		         "which %u warps (%u threads) reached of the %u threads "
		         "it waits for",
		         nb->nwaiting, id, (unsigned)__builtin_popcount(nb->counted),
		         32 * (unsigned)__builtin_popcount(nb->counted), nb->threads);
		return -1;
	}
	return 0;
}

/* Threads spin in mbarrier try_wait and none can get on: a GPU would
 * hang. Fails the launch, naming the first spinner's mbarrier. */
static int spin_hang(Launch *l)
{
	Fiber *f;
	char what[160];

	if (l->nspin == 0)
		return 0;
	f = l->spin[l->spin_at];
	oxemu_mbar_show(what, sizeof what, f->spin_bar);
	l->trapped = STOP_ERROR;
	l->trap_block = oxemu_here.ctaid;
	l->trap_thread = f->tid;
	snprintf(l->trap_why, sizeof l->trap_why, "it would hang on a GPU: %u "
	         "threads spin forever in mbarrier_try_wait_parity; this one "
	         "waits for the phase of parity %u of %s", l->nspin,
	         f->spin_parity & 1, what);
	return -1;
}

/* Threads wait at a warpgroup's rendezvous that can no longer complete. */
static int group_hang(Launch *l)
{
	for (unsigned gi = 0; gi < l->ngroups; gi++) {
		GroupSync *gs = &l->groups[gi];

		if (gs->nwaiting == 0)
			continue;
		l->trapped = STOP_ERROR;
		l->trap_block = oxemu_here.ctaid;
		l->trap_thread = gs->waiting[0]->tid;
		snprintf(l->trap_why, sizeof l->trap_why, "it would hang on a "
		         "GPU: %u threads of warpgroup %u wait forever at "
		         "wgmma_wait_group, which every thread of the warpgroup "
		         "must reach", gs->nwaiting, gi);
		return -1;
	}
	return 0;
}

/* Block l of its cluster, at ctaid, before its first thread starts. */
static void block_start(Launch *l, OxDim3 ctaid)
{
	l->ctaid = ctaid;
	l->finished = 0;
	l->next = 0;
	l->nready = l->ready_at = 0;
	l->nspin = l->spin_at = 0;
	l->ncwait = 0;
	l->bar_count = 0;
	memset(l->carrived, 0, l->nthreads * sizeof *l->carrived);
	memset(l->warps, 0, l->nwarps * sizeof *l->warps);
	memset(l->groups, 0, l->ngroups * sizeof *l->groups);
	for (unsigned id = 0; id < NAMED_BARRIERS; id++)
		oxemu_named_reset(&l->named[id]);
}

/* The running block is l: its registers, its shared memory. */
static void enter_block(Launch *l)
{
	oxemu_running = l;
	oxemu_here.ctaid = l->ctaid;
	oxemu_dyn_shared.buf = l->shmem;
}

/* Runs block l's threads until none can go on: -1 when the launch
 * stopped, 1 when threads wait for the cluster's barrier, 2 when they
 * spin on mbarriers that another block of the cluster may complete, 0
 * when every thread returned. *ran is set when a thread ran. */
static int block_step(Launch *l, int *ran)
{
	Fiber *f;

	if (l->cluster->n > 1)        /* each turn resumes the spinners afresh */
		l->spin_idle = 0;
	while ((f = pick_fiber(l)) != NULL) {
		*ran = 1;
		resume(l, f);
		if (l->trapped)
			return -1;
	}
	if (l->nspin > 0 && l->cluster->n > 1)
		return 2;
	if (l->ncwait > 0)
		return 1;
	if (spin_hang(l) != 0 || named_hang(l) != 0 || group_hang(l) != 0)
		return -1;
	if (l->failed)
		return -1;
	l->finished = 1;
	if (l->cluster->guarded)      /* its shared memory is gone */
		(void)mprotect(l->shmem, l->cluster->stride, PROT_NONE);
	return 0;
}

/* What changes when a cluster gets on: mbarriers, spinners that found
 * their phase complete (block_step resumes only some of them per turn:
 * the phase may have completed turns ago), its barrier, blocks that
 * finished (run_cluster's test for a hang of spinning blocks). */
static unsigned long long cluster_progress(const Cluster *c)
{
	unsigned long long p = c->phase * 1000003ull + c->narrived + c->gphase * 1009ull + c->garrived;

	for (unsigned r = 0; r < c->n; r++)
		p += c->blocks[r].mbar_events * 7 + c->blocks[r].spin_wakes * 13 + c->blocks[r].finished;
	return p;
}

/* Runs the cluster whose block of rank 0 is at ctaid `at`: its blocks in
 * turn, each until it waits for the others, until all returned.  When
 * every block left only spins and three rounds changed nothing, no
 * thread can get on: a hang, reported on the first spinning block. */
static int run_cluster(Cluster *c, OxDim3 at)
{
	OxDim3 d = c->dim;
	unsigned stalled = 0;

	c->phase = c->narrived = 0;
	c->live = c->n * c->blocks[0].nthreads;
	if (c->guarded)
		(void)mprotect(c->shm, c->shm_len, PROT_READ | PROT_WRITE);
	for (unsigned r = 0; r < c->n; r++) {
		OxDim3 id = {at.x + r % d.x, at.y + r / d.x % d.y, at.z + r / (d.x * d.y)};
		block_start(&c->blocks[r], id);
	}
	for (;;) {
		int ran = 0, waiting = 0, spinning = 0;
		unsigned long long before = cluster_progress(c);

		for (unsigned r = 0; r < c->n; r++) {
			Launch *l = &c->blocks[r];
			int st;

			if (l->finished)
				continue;
			enter_block(l);
			st = block_step(l, &ran);
			if (st < 0)
				return -1;
			waiting |= st == 1;
			spinning |= st == 2;
		}
		if (!waiting && !spinning)
			return 0;
		if (cluster_progress(c) != before)
			stalled = 0;
		else if (spinning && ++stalled >= 3) {
			for (unsigned r = 0; r < c->n; r++)
				if (!c->blocks[r].finished && c->blocks[r].nspin > 0) {
					enter_block(&c->blocks[r]);
					(void)spin_hang(&c->blocks[r]);
					return -1;
				}
		}
		if (!ran)
			return c->coop ? oxemu_grid_hang(c) : oxemu_cluster_hang(c);
	}
}

/* The clusters of the grid, in the GPU's order (x fastest). */
static int run_grid(Cluster *c, OxDim3 grid)
{
	OxDim3 d = c->dim;

	for (unsigned z = 0; z < grid.z; z += d.z)
		for (unsigned y = 0; y < grid.y; y += d.y)
			for (unsigned x = 0; x < grid.x; x += d.x)
				if (run_cluster(c, (OxDim3){x, y, z}) != 0)
					return -1;
	return 0;
}

/* The limits cuLaunchKernel enforces on every current GPU. */
int oxemu_check_dims(const OxFunc *f, OxDim3 grid, OxDim3 block)
{
	unsigned long long n = (unsigned long long)block.x * block.y * block.z;
	const char *why = NULL;

	if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 ||
	    block.y == 0 || block.z == 0)
		why = "a grid or block dimension is 0";
	else if (block.x > 1024 || block.y > 1024 || block.z > 64 || n > 1024)
		why = "a block has at most 1024 threads, x and y at most 1024, "
		      "z at most 64";
	else if (grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
		why = "grid x is at most 2^31-1, y and z at most 65535";
	if (why == NULL)
		return 0;
	return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_launch(%s in %s, grid "
	                      "%ux%ux%u, block %ux%ux%u): "
	                      "CUDA_ERROR_INVALID_VALUE (emulated: %s)",
	                      f->name, f->path, grid.x, grid.y, grid.z,
	                      block.x, block.y, block.z, why);
}

/* One block's scheduler state: its lists hold at most one entry per
 * thread. 0, or -1 when out of memory. */
static int launch_init(Launch *l, const OxFunc *f, void **args, unsigned nthreads)
{
	memcpy(&l->entry, &f->handle, sizeof l->entry);
	l->args = args;
	l->nthreads = nthreads;
	l->all = calloc(6 * (size_t)nthreads, sizeof *l->all);
	l->carrived = calloc(nthreads, sizeof *l->carrived);
	l->nwarps = (nthreads + 31) / 32;
	l->warps = calloc(l->nwarps, sizeof *l->warps);
	l->ngroups = (l->nwarps + 3) / 4;
	l->groups = calloc(l->ngroups, sizeof *l->groups);
	if (l->all == NULL || l->carrived == NULL || l->warps == NULL || l->groups == NULL)
		return -1;
	l->idle = l->all + nthreads;
	l->wait = l->idle + nthreads;
	l->ready = l->wait + nthreads;
	l->spin = l->ready + nthreads;
	l->cwait = l->spin + nthreads;
	return 0;
}

static void launch_free(Launch *l)
{
	for (unsigned i = 0; i < l->nall; i++)
		free_fiber(l->all[i]);
	free(l->all);
	free(l->carrived);
	free(l->warps);
	free(l->groups);
	for (unsigned id = 0; id < NAMED_BARRIERS; id++)
		free(l->named[id].waiting);
}

/* Frees the cluster's blocks and shared memory; a block's trap waits
 * for the next synchronizing call. */
static void end_launch(Cluster *c, const OxFunc *f)
{
	int reported = 0;

	for (unsigned r = 0; r < c->n; r++) {
		Launch *l = &c->blocks[r];

		if (l->trapped && !reported++) {
			oxemu_trap.pending = l->trapped;
			snprintf(oxemu_trap.kernel, sizeof oxemu_trap.kernel, "%s", f->name);
			snprintf(oxemu_trap.path, sizeof oxemu_trap.path, "%s", f->path);
			snprintf(oxemu_trap.why, sizeof oxemu_trap.why, "%s", l->trap_why);
			oxemu_trap.block = l->trap_block;
			oxemu_trap.thread = l->trap_thread;
		}
		launch_free(l);
	}
	free(c->blocks);
	if (c->guarded)
		sigaction(SIGSEGV, &old_segv, NULL);
	if (c->shm != NULL)
		munmap(c->shm, c->shm_len);
	oxemu_running = NULL;
	oxemu_here = lone;
	oxemu_dyn_shared.buf = NULL;
}

/* A fault in the shared memory of a block of the running cluster that
 * has exited (made inaccessible by block_step) fails the launch; any
 * other fault is the previous handler's, which the faulting instruction
 * meets again once this one is gone. oxemu_fail_launch leaves the fiber for
 * the scheduler, whose context restores the signal mask. */
static void exited_access(int sig, siginfo_t *si, void *uc)
{
	Launch *l = oxemu_running;
	Cluster *c = l != NULL ? l->cluster : NULL;
	uintptr_t a = (uintptr_t)si->si_addr, base = c != NULL ? (uintptr_t)c->shm : 0;

	(void)uc;
	if (c != NULL && c->guarded && a >= base && a - base < c->shm_len &&
	    c->blocks[(a - base) / c->stride].finished)
		oxemu_fail_launch("an access to the shared memory of block rank %u of the cluster (%p), which has exited "
		                  "(undefined on a GPU: end with cluster::sync() while other blocks use it)",
		                  (unsigned)((a - base) / c->stride), si->si_addr);
	sigaction(sig, &old_segv, NULL);
}

/* Clusters of several blocks: catch accesses to an exited block's shared
 * memory (the GPU frees it; a mapped pointer held past the block's exit
 * would read stale memory here). */
static void guard_exited(Cluster *c)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = exited_access;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	c->guarded = sigaction(SIGSEGV, &sa, &old_segv) == 0;
}

/* Each block's shared memory: the dynamic (dyn bytes), then the static
 * (Shared<T> statics: stat bytes), each 1024-byte aligned, in whole
 * pages. */
static int cluster_shared(Cluster *c, size_t dyn, size_t stat)
{
	size_t page = page_size();

	c->static_off = (dyn + 1023) / 1024 * 1024;
	c->stride = (c->static_off + stat + page - 1) / page * page;
	if (c->stride == 0)
		c->stride = page;
	c->shm_len = c->stride * c->n;
	c->shm = mmap(NULL, c->shm_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->shm == MAP_FAILED) {
		c->shm = NULL;
		return -1;
	}
	for (unsigned r = 0; r < c->n; r++) {
		c->blocks[r].shmem = c->shm + r * c->stride;
		c->blocks[r].rank = r;
		c->blocks[r].cluster = c;
	}
	oxemu_dyn_shared.size = dyn;
	return 0;
}

/* What a launch runs: the grid in clusters of c->dim, each block with
 * shared_bytes of dynamic and stat of static shared memory. */
int oxemu_run_launch(const OxFunc *f, Cluster *c, OxDim3 grid, OxDim3 block,
                      unsigned shared_bytes, size_t stat, void **args)
{
	int failed = 0;

	if (oxemu_running != NULL)
		return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_launch(%s): "
		                      "called from an emulated kernel", f->name);
	c->n = c->dim.x * c->dim.y * c->dim.z;
	c->blocks = calloc(c->n, sizeof *c->blocks);
	for (unsigned r = 0; c->blocks != NULL && r < c->n; r++)
		failed |= launch_init(&c->blocks[r], f, args, block.x * block.y * block.z);
	if (c->blocks == NULL || failed || cluster_shared(c, shared_bytes, stat) != 0) {
		if (c->blocks != NULL)
			end_launch(c, f);
		return oxrt_set_error(OX_CUDA_OUT_OF_MEMORY, "ox_launch(%s): "
		                      "CUDA_ERROR_OUT_OF_MEMORY (emulated)",
		                      f->name);
	}
	if (c->n > 1)
		guard_exited(c);
	oxemu_here.ntid = block;
	oxemu_here.nctaid = grid;
	oxemu_here.cdim = c->coop ? (OxDim3){1, 1, 1} : c->dim;
	oxemu_here.explicit_cluster = (unsigned)c->explicit_dims;
	run_grid(c, grid);
	for (unsigned r = 0; r < c->n; r++)
		failed |= c->blocks[r].failed;
	end_launch(c, f);
	if (failed)
		return oxrt_set_error(OX_CUDA_OUT_OF_MEMORY, "ox_launch(%s in %s): "
		                      "CUDA_ERROR_OUT_OF_MEMORY (emulated: no "
		                      "memory for a thread's stack)", f->name,
		                      f->path);
	return 0;
}

int oxemu_synchronize(const char *call, const char *what)
{
	int kind = oxemu_trap.pending;

	if (!kind)
		return 0;
	oxemu_trap.pending = 0;
	if (kind == STOP_ASSERT) {
		oxrt_set_error(OX_CUDA_ASSERT, "%s(%s): CUDA_ERROR_ASSERT (emulated: "
		               "device-side assert failed in block (%u,%u,%u) "
		               "thread (%u,%u,%u))", call, what, oxemu_trap.block.x,
		               oxemu_trap.block.y, oxemu_trap.block.z, oxemu_trap.thread.x,
		               oxemu_trap.thread.y, oxemu_trap.thread.z);
		oxrt_append_error("\n  kernel %s in %s: a device_assert! failed "
		                  "(its message is on stderr); on a GPU the CUDA "
		                  "context would now be unusable", oxemu_trap.kernel,
		                  oxemu_trap.path);
		return -1;
	}
	if (kind == STOP_ERROR) {
		oxrt_set_error(OX_CUDA_LAUNCH_FAILED, "%s(%s): "
		               "CUDA_ERROR_LAUNCH_FAILED (emulated: stopped in "
		               "block (%u,%u,%u) thread (%u,%u,%u))", call, what,
		               oxemu_trap.block.x, oxemu_trap.block.y, oxemu_trap.block.z,
		               oxemu_trap.thread.x, oxemu_trap.thread.y, oxemu_trap.thread.z);
		oxrt_append_error("\n  kernel %s in %s: %s", oxemu_trap.kernel,
		                  oxemu_trap.path, oxemu_trap.why);
		return -1;
	}
	oxrt_set_error(OX_CUDA_LAUNCH_FAILED, "%s(%s): CUDA_ERROR_LAUNCH_FAILED "
	               "(emulated: kernel trapped in block (%u,%u,%u) thread "
	               "(%u,%u,%u))", call, what, oxemu_trap.block.x, oxemu_trap.block.y,
	               oxemu_trap.block.z, oxemu_trap.thread.x, oxemu_trap.thread.y,
	               oxemu_trap.thread.z);
	oxrt_append_error("\n  kernel %s in %s executed trap: a Rust panic "
	                  "(a failed bounds check, unwrap, overflow "
	                  "check...); on a GPU the CUDA context would now be "
	                  "unusable", oxemu_trap.kernel, oxemu_trap.path);
	return -1;
}

/* ------------------------------------------- called by emulated kernels */

unsigned __oxide_host_tid_x(void) { return oxemu_here.tid.x; }
unsigned __oxide_host_tid_y(void) { return oxemu_here.tid.y; }
unsigned __oxide_host_tid_z(void) { return oxemu_here.tid.z; }
unsigned __oxide_host_ntid_x(void) { return oxemu_here.ntid.x; }
unsigned __oxide_host_ntid_y(void) { return oxemu_here.ntid.y; }
unsigned __oxide_host_ntid_z(void) { return oxemu_here.ntid.z; }
unsigned __oxide_host_ctaid_x(void) { return oxemu_here.ctaid.x; }
unsigned __oxide_host_ctaid_y(void) { return oxemu_here.ctaid.y; }
unsigned __oxide_host_ctaid_z(void) { return oxemu_here.ctaid.z; }
unsigned __oxide_host_nctaid_x(void) { return oxemu_here.nctaid.x; }
unsigned __oxide_host_nctaid_y(void) { return oxemu_here.nctaid.y; }
unsigned __oxide_host_nctaid_z(void) { return oxemu_here.nctaid.z; }

/* bar.sync 0: wait until every live thread of the block waits. */
void __oxide_host_barrier_sync(void)
{
	Launch *l = oxemu_running;
	Fiber *f;

	if (l == NULL)                /* a kernel called directly: one thread */
		return;
	f = l->cur;
	l->wait[l->nwait++] = f;
	oxemu_to_scheduler(l, f, 0);
}

/* Ends the launch from the running thread (kind: a STOP_*). */
_Noreturn void oxemu_stop_launch(int kind)
{
	Launch *l = oxemu_running;

	if (l == NULL) {
		fflush(stdout);
		fputs("oxrt: an emulated kernel called directly (outside "
		      "ox_launch) trapped: a Rust panic\n", stderr);
		abort();
	}
	l->trapped = kind;
	l->trap_block = oxemu_here.ctaid;
	l->trap_thread = oxemu_here.tid;
	oxemu_to_scheduler(l, l->cur, 1);
	abort();                      /* never resumed */
}

/* Ends the launch with what went wrong (STOP_ERROR): the emulator found
 * what a GPU leaves undefined, or what it does not emulate. */
__attribute__((format(printf, 1, 2)))
_Noreturn void oxemu_fail_launch(const char *fmt, ...)
{
	char why[sizeof oxemu_running->trap_why];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	if (oxemu_running == NULL) {
		fflush(stdout);
		fprintf(stderr, "oxrt: an emulated kernel called directly (outside "
		        "ox_launch) failed: %s\n", why);
		abort();
	}
	memcpy(oxemu_running->trap_why, why, sizeof why);
	oxemu_stop_launch(STOP_ERROR);
}

/* oxide_device::hint::unroll: oxidec turns it into loop metadata on both
 * targets, so the emulator is never called; defined for the registry. */
void __oxide_host_loop_unroll(unsigned count)
{
	(void)count;
}

_Noreturn void __oxide_host_trap(void)
{
	oxemu_stop_launch(STOP_TRAP);
}

/* CUDA's __assertfail: the driver's message, then the launch stops. */
_Noreturn void __oxide_host_assertfail(const char *msg, const char *file,
                                       unsigned line, const char *func)
{
	fflush(stdout);
	fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] "
	        "Assertion `%s` failed.\n", file, line, func, oxemu_here.ctaid.x,
	        oxemu_here.ctaid.y, oxemu_here.ctaid.z, oxemu_here.tid.x, oxemu_here.tid.y, oxemu_here.tid.z,
	        msg);
	oxemu_stop_launch(STOP_ASSERT);
}
