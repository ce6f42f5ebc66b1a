/* oxemu.c: the host emulator backend of oxrt (oxbackend.h): runs the
 * kernels of `oxidec --target=host` modules (shared objects, opened with
 * dlopen) on the CPU, and defines the __oxide_host_* functions they call
 * (oxide_host_abi.h). Device memory is host memory, so a device pointer is
 * a host address.
 *
 * A launch runs its clusters one after another, in the GPU's order (x
 * fastest); a launch without clusters has clusters of one block. The
 * blocks of a cluster run together, as the GPU keeps them resident
 * together: each is a Launch (its own scheduler, fibers and shared memory,
 * static and dynamic), run in turn until its threads wait for the
 * cluster's barrier or return (run_cluster; the clusters section below).
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
 *      Hopper section at the end);
 *   4. else, unless threads wait for the cluster's barrier (then the block
 *      waits for the other blocks of its cluster), every live thread
 *      waits at the barrier: release them all;
 *   5. else the block is done.
 *
 * Warp-level operations (shuffle, vote, match, redux, bar.warp.sync: the
 * __oxide_host_shfl_* family below) use the same scheme: the op stores its
 * operand in a slot of the thread's warp (warp = linear thread index / 32)
 * and the fiber waits, like at a barrier, in the group of its warp's lanes
 * that wait with the same member mask: lanes in divergent branches pass
 * disjoint masks, and each branch's operation completes on its own. The
 * lane that completes a group (every lane of its member mask has arrived
 * or returned) gives each lane of the group a copy of all operands, makes
 * them ready (they run before new threads start) and goes on; each lane
 * then computes its own result from its copy. Lanes start in order, so a
 * warp always completes before the block's barrier can release.
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
#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* MAP_ANONYMOUS, MAP_STACK, ucontext */
#endif
#include "oxbackend.h"
#include "oxide_host_abi.h"

#include <dlfcn.h>
#include <link.h>                /* ElfW: ox_module_global's size */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

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

static size_t stack_limit = 1024;       /* what the program asked for */

/* A cp.async of the thread not yet completed: it lands at the
 * cp.async.wait_group that waits for its group (group: the number of
 * commits before it was issued). */
typedef struct {
	void *dst;
	const void *src;
	unsigned n, group;
} AsyncCopy;

enum { ASYNC_COPIES = 64 };   /* beyond this many pending, the oldest completes */

typedef struct {
	ucontext_t ctx;
	char *map;                    /* guard page, then the stack */
	size_t map_len;
	unsigned vg_id;               /* valgrind's stack id */
	void *fake;                   /* ASan's fake stack while away */
	OxDim3 tid;                   /* the thread it runs */
	unsigned lin;                 /* its linear index in the block */
	uint64_t wv[32];              /* warp op: every lane's operand, */
	uint32_t wpresent;            /* of the lanes that took part */
	AsyncCopy acp[ASYNC_COPIES];  /* the thread's pending cp.async, in order */
	unsigned nacp, committed;     /* how many; cp.async.commit_groups so far */
	const void *spin_bar;         /* spinning: the mbarrier it polls, */
	unsigned spin_parity;         /* and the parity of the phase */
} Fiber;

/* The lanes of a warp waiting at a warp operation with the same member
 * mask, and the lanes they wait for. */
typedef struct {
	uint32_t mask, arrived, need;
} WarpGroup;

/* One warp's rendezvous for shuffles, votes, match and redux: lanes
 * store their operand and wait in their group until every lane of the
 * member mask that has not returned arrived (see the header). A lane
 * waits in one group at a time, so there are at most 32. */
typedef struct {
	uint64_t val[32];
	Fiber *waiting[32];
	WarpGroup group[32];
	unsigned ngroup;
	uint32_t done;                /* lanes that returned */
} Warp;

/* One named barrier of a block (PTX barrier.sync / barrier.arrive a, b):
 * per warp the lanes that arrived, the warps whose arrival is complete,
 * the expected count b, and the fibers waiting, in arrival order. */
typedef struct {
	uint32_t lanes[32];
	uint32_t counted;
	unsigned threads;
	Fiber **waiting;              /* nthreads entries, made at first use */
	unsigned nwaiting;
} NamedBarrier;

enum { NAMED_BARRIERS = 16 };

/* A warpgroup's rendezvous (4 consecutive warps, warp-collective
 * operations of the whole group: wgmma.wait_group): the lanes of each of
 * its warps that arrived, and the fibers waiting, in arrival order. */
typedef struct {
	Fiber *waiting[128];
	uint32_t lanes[4];
	unsigned nwaiting;
} GroupSync;

/* A spinning thread is resumed when nothing else can run; after this
 * many resumes per spinning thread with no mbarrier changing, none of
 * them can get on (only an mbarrier operation can end a spin): a hang. */
enum { SPIN_ROUNDS = 1000 };

/* Why a launch stopped early: a trap, a failed assert, or the emulator
 * found what a GPU leaves undefined or hangs on (trap_why says what). */
enum { STOP_TRAP = 1, STOP_ASSERT, STOP_ERROR };

/* One launch. The fiber lists hold at most one entry per thread. */
typedef struct {
	void (*entry)(void **);       /* __oxide_launch_<kernel> */
	void **args;
	unsigned nthreads;            /* per block */
	unsigned next;                /* linear index of the next thread */
	Fiber **all, **idle, **wait, **ready;
	unsigned nall, nidle, nwait, nready, ready_at;
	Fiber *cur;
	ucontext_t sched;             /* the scheduler, on the caller's stack */
	void *sched_fake;
	const void *sched_bottom;
	size_t sched_size;
	int trapped, failed;          /* trapped: a STOP_* */
	OxDim3 trap_block, trap_thread;
	char trap_why[512];           /* STOP_ERROR: what went wrong */
	Warp *warps;                  /* per warp of the block */
	unsigned nwarps;
	unsigned bar_count, bar_result, bar_live;  /* bar.red: true preds */
	NamedBarrier named[NAMED_BARRIERS];
	GroupSync *groups;            /* per warpgroup of the block */
	unsigned ngroups;
	Fiber **spin;                 /* threads spinning in an mbarrier */
	unsigned spin_at, nspin;      /* try_wait: a ring, from spin_at */
	unsigned long long mbar_events;  /* mbarrier changes so far, */
	unsigned long long spin_seen;    /* when spin_idle was last reset, */
	unsigned long long spin_idle;    /* spinners resumed since */
	/* the block it runs: a launch runs one Launch per block of a
	 * cluster, all of them at once (see Cluster) */
	struct Cluster *cluster;
	OxDim3 ctaid;
	unsigned rank;                /* in the cluster */
	int finished;                 /* every thread returned */
	unsigned char *shmem;         /* its shared memory: dynamic, then static */
	Fiber **cwait;                /* waiting at barrier.cluster.wait */
	unsigned ncwait;
	unsigned *carrived;           /* per thread: the cluster barrier phase
	                                 + 1 it arrived in; 0: not arrived */
} Launch;

/* The blocks of one cluster, run together: their threads interleave, a
 * Launch each, so that barrier.cluster and the reads and writes of each
 * other's shared memory (mapa) behave as on the GPU, where a cluster's
 * blocks are resident at the same time. A launch without clusters runs
 * clusters of one block. The barrier: the phases completed so far, the
 * arrivals in the current one of threads that have not exited, and how
 * many threads of the cluster have not exited (started or not). */
typedef struct Cluster {
	Launch *blocks;               /* n, by rank */
	unsigned n;
	OxDim3 dim;                   /* blocks per cluster */
	int explicit_dims;            /* the launch or the kernel gave them */
	unsigned phase, narrived, live;
	unsigned char *shm;           /* the blocks' shared memory: n * stride */
	size_t shm_len, stride, static_off;
	int guarded;                  /* n > 1: a block's memory is made
	                                 inaccessible when it exits, and an
	                                 access to it fails the launch */
} Cluster;

static struct sigaction old_segv;     /* SIGSEGV's handler before a guarded launch */

/* The special registers of the running thread (cdim: blocks per
 * cluster; explicit: %is_explicit_cluster). */
typedef struct {
	OxDim3 tid, ntid, ctaid, nctaid, cdim;
	unsigned explicit_cluster;
} Where;

static const Where lone = {{0, 0, 0}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, 0};
static _Thread_local Where here = {{0, 0, 0}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, 0};

/* Dynamic shared memory: the launch's shared_bytes, at the start of each
 * block's shared memory (Cluster.shm), 1024-byte aligned like the shared
 * memory window of a GPU, so the swizzles of TMA and wgmma (functions of
 * address bits 4..9) see the same bits in a host address as in the shared
 * address. buf: the running block's. */
static struct {
	unsigned char *buf;
	size_t size;
} dyn_shared;
static _Thread_local Launch *running;

/* A trap waiting for the next synchronizing call (pending: a STOP_*). */
static struct {
	int pending;
	char kernel[128], path[512], why[512];
	OxDim3 block, thread;
} trap;

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
static void to_scheduler(Launch *l, Fiber *f, int dying)
{
	asan_start(dying ? NULL : &f->fake, l->sched_bottom, l->sched_size);
	swapcontext(&f->ctx, &l->sched);
	asan_finish(f->fake, &l->sched_bottom, &l->sched_size);
}

static void start_thread(Fiber *f, unsigned t)
{
	OxDim3 b = here.ntid;

	f->tid.x = t % b.x;
	f->tid.y = t / b.x % b.y;
	f->tid.z = t / (b.x * b.y);
	f->lin = t;
	f->nacp = f->committed = 0;   /* what the last thread left pending is dropped */
	here.tid = f->tid;
}

static void warp_returned(Launch *l, unsigned lin);
static void cluster_returned(Launch *l, unsigned lin);

/* Every fiber runs this: threads while there are unstarted ones, then it
 * waits on the idle list until the scheduler needs it again. */
static void fiber_main(void)
{
	Launch *l = running;
	Fiber *f = l->cur;

	asan_finish(NULL, &l->sched_bottom, &l->sched_size);
	for (;;) {
		while (l->next < l->nthreads) {
			start_thread(f, l->next++);
			l->entry(l->args);
			warp_returned(l, f->lin);
			cluster_returned(l, f->lin);
		}
		l->idle[l->nidle++] = f;
		to_scheduler(l, f, 0);
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
	size_t want = stack_limit > STACK_BYTES ? stack_limit : STACK_BYTES;

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
	here.tid = f->tid;
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

static void named_reset(NamedBarrier *nb)
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
		l->trap_block = here.ctaid;
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

static void mbar_show(char *buf, size_t len, const void *bar);

/* Threads spin in mbarrier try_wait and none can get on: a GPU would
 * hang. Fails the launch, naming the first spinner's mbarrier. */
static int spin_hang(Launch *l)
{
	Fiber *f;
	char what[160];

	if (l->nspin == 0)
		return 0;
	f = l->spin[l->spin_at];
	mbar_show(what, sizeof what, f->spin_bar);
	l->trapped = STOP_ERROR;
	l->trap_block = here.ctaid;
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
		l->trap_block = here.ctaid;
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
		named_reset(&l->named[id]);
}

/* The running block is l: its registers, its shared memory. */
static void enter_block(Launch *l)
{
	running = l;
	here.ctaid = l->ctaid;
	dyn_shared.buf = l->shmem;
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

static int cluster_hang(Cluster *c);

/* What changes when a cluster gets on: mbarriers, its barrier, blocks
 * that finished (run_cluster's test for a hang of spinning blocks). */
static unsigned long long cluster_progress(const Cluster *c)
{
	unsigned long long p = c->phase * 1000003ull + c->narrived;

	for (unsigned r = 0; r < c->n; r++)
		p += c->blocks[r].mbar_events * 7 + c->blocks[r].finished;
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
			return cluster_hang(c);
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
static int check_dims(const OxFunc *f, OxDim3 grid, OxDim3 block)
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
			trap.pending = l->trapped;
			snprintf(trap.kernel, sizeof trap.kernel, "%s", f->name);
			snprintf(trap.path, sizeof trap.path, "%s", f->path);
			snprintf(trap.why, sizeof trap.why, "%s", l->trap_why);
			trap.block = l->trap_block;
			trap.thread = l->trap_thread;
		}
		launch_free(l);
	}
	free(c->blocks);
	if (c->guarded)
		sigaction(SIGSEGV, &old_segv, NULL);
	if (c->shm != NULL)
		munmap(c->shm, c->shm_len);
	running = NULL;
	here = lone;
	dyn_shared.buf = NULL;
}

static _Noreturn void fail_launch(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A fault in the shared memory of a block of the running cluster that
 * has exited (made inaccessible by block_step) fails the launch; any
 * other fault is the previous handler's, which the faulting instruction
 * meets again once this one is gone. fail_launch leaves the fiber for
 * the scheduler, whose context restores the signal mask. */
static void exited_access(int sig, siginfo_t *si, void *uc)
{
	Launch *l = running;
	Cluster *c = l != NULL ? l->cluster : NULL;
	uintptr_t a = (uintptr_t)si->si_addr, base = c != NULL ? (uintptr_t)c->shm : 0;

	(void)uc;
	if (c != NULL && c->guarded && a >= base && a - base < c->shm_len &&
	    c->blocks[(a - base) / c->stride].finished)
		fail_launch("an access to the shared memory of block rank %u of the cluster (%p), which has exited "
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
	dyn_shared.size = dyn;
	return 0;
}

/* What a launch runs: the grid in clusters of c->dim, each block with
 * shared_bytes of dynamic and stat of static shared memory. */
static int run_launch(const OxFunc *f, Cluster *c, OxDim3 grid, OxDim3 block,
                      unsigned shared_bytes, size_t stat, void **args)
{
	int failed = 0;

	if (running != NULL)
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
	here.ntid = block;
	here.nctaid = grid;
	here.cdim = c->dim;
	here.explicit_cluster = (unsigned)c->explicit_dims;
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

static int emu_synchronize(const char *call, const char *what)
{
	int kind = trap.pending;

	if (!kind)
		return 0;
	trap.pending = 0;
	if (kind == STOP_ASSERT) {
		oxrt_set_error(OX_CUDA_ASSERT, "%s(%s): CUDA_ERROR_ASSERT (emulated: "
		               "device-side assert failed in block (%u,%u,%u) "
		               "thread (%u,%u,%u))", call, what, trap.block.x,
		               trap.block.y, trap.block.z, trap.thread.x,
		               trap.thread.y, trap.thread.z);
		oxrt_append_error("\n  kernel %s in %s: a device_assert! failed "
		                  "(its message is on stderr); on a GPU the CUDA "
		                  "context would now be unusable", trap.kernel,
		                  trap.path);
		return -1;
	}
	if (kind == STOP_ERROR) {
		oxrt_set_error(OX_CUDA_LAUNCH_FAILED, "%s(%s): "
		               "CUDA_ERROR_LAUNCH_FAILED (emulated: stopped in "
		               "block (%u,%u,%u) thread (%u,%u,%u))", call, what,
		               trap.block.x, trap.block.y, trap.block.z,
		               trap.thread.x, trap.thread.y, trap.thread.z);
		oxrt_append_error("\n  kernel %s in %s: %s", trap.kernel,
		                  trap.path, trap.why);
		return -1;
	}
	oxrt_set_error(OX_CUDA_LAUNCH_FAILED, "%s(%s): CUDA_ERROR_LAUNCH_FAILED "
	               "(emulated: kernel trapped in block (%u,%u,%u) thread "
	               "(%u,%u,%u))", call, what, trap.block.x, trap.block.y,
	               trap.block.z, trap.thread.x, trap.thread.y,
	               trap.thread.z);
	oxrt_append_error("\n  kernel %s in %s executed trap: a Rust panic "
	                  "(a failed bounds check, unwrap, overflow "
	                  "check...); on a GPU the CUDA context would now be "
	                  "unusable", trap.kernel, trap.path);
	return -1;
}

/* ------------------------------------------- called by emulated kernels */

unsigned __oxide_host_tid_x(void) { return here.tid.x; }
unsigned __oxide_host_tid_y(void) { return here.tid.y; }
unsigned __oxide_host_tid_z(void) { return here.tid.z; }
unsigned __oxide_host_ntid_x(void) { return here.ntid.x; }
unsigned __oxide_host_ntid_y(void) { return here.ntid.y; }
unsigned __oxide_host_ntid_z(void) { return here.ntid.z; }
unsigned __oxide_host_ctaid_x(void) { return here.ctaid.x; }
unsigned __oxide_host_ctaid_y(void) { return here.ctaid.y; }
unsigned __oxide_host_ctaid_z(void) { return here.ctaid.z; }
unsigned __oxide_host_nctaid_x(void) { return here.nctaid.x; }
unsigned __oxide_host_nctaid_y(void) { return here.nctaid.y; }
unsigned __oxide_host_nctaid_z(void) { return here.nctaid.z; }

/* bar.sync 0: wait until every live thread of the block waits. */
void __oxide_host_barrier_sync(void)
{
	Launch *l = running;
	Fiber *f;

	if (l == NULL)                /* a kernel called directly: one thread */
		return;
	f = l->cur;
	l->wait[l->nwait++] = f;
	to_scheduler(l, f, 0);
}

/* Ends the launch from the running thread (kind: a STOP_*). */
_Noreturn static void stop_launch(int kind)
{
	Launch *l = running;

	if (l == NULL) {
		fflush(stdout);
		fputs("oxrt: an emulated kernel called directly (outside "
		      "ox_launch) trapped: a Rust panic\n", stderr);
		abort();
	}
	l->trapped = kind;
	l->trap_block = here.ctaid;
	l->trap_thread = here.tid;
	to_scheduler(l, l->cur, 1);
	abort();                      /* never resumed */
}

/* Ends the launch with what went wrong (STOP_ERROR): the emulator found
 * what a GPU leaves undefined, or what it does not emulate. */
__attribute__((format(printf, 1, 2)))
_Noreturn static void fail_launch(const char *fmt, ...)
{
	char why[sizeof running->trap_why];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	if (running == NULL) {
		fflush(stdout);
		fprintf(stderr, "oxrt: an emulated kernel called directly (outside "
		        "ox_launch) failed: %s\n", why);
		abort();
	}
	memcpy(running->trap_why, why, sizeof why);
	stop_launch(STOP_ERROR);
}

/* oxide_device::hint::unroll: oxidec turns it into loop metadata on both
 * targets, so the emulator is never called; defined for the registry. */
void __oxide_host_loop_unroll(unsigned count)
{
	(void)count;
}

_Noreturn void __oxide_host_trap(void)
{
	stop_launch(STOP_TRAP);
}

/* CUDA's __assertfail: the driver's message, then the launch stops. */
_Noreturn void __oxide_host_assertfail(const char *msg, const char *file,
                                       unsigned line, const char *func)
{
	fflush(stdout);
	fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] "
	        "Assertion `%s` failed.\n", file, line, func, here.ctaid.x,
	        here.ctaid.y, here.ctaid.z, here.tid.x, here.tid.y, here.tid.z,
	        msg);
	stop_launch(STOP_ASSERT);
}

/* ------------------------------------ warp operations, sync, timers */

/* The lanes of warp w that exist (the last warp of a block may be
 * partial). */
static uint32_t warp_lanes(const Launch *l, unsigned w)
{
	unsigned n = l->nthreads - w * 32;

	return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

/* A fiber the scheduler resumes before starting new threads. */
static void make_ready(Launch *l, Fiber *g)
{
	if (l->ready_at == l->nready) {
		l->ready_at = l->nready = 0;
	} else if (l->nready == l->nthreads) {
		memmove(l->ready, l->ready + l->ready_at,
		        (l->nready - l->ready_at) * sizeof *l->ready);
		l->nready -= l->ready_at;
		l->ready_at = 0;
	}
	l->ready[l->nready++] = g;
}

/* Every lane of group gi gets a copy of the operands; all but self (the
 * running fiber, or NULL) become ready. The group ends. */
static void warp_release(Launch *l, Warp *wp, unsigned gi, Fiber *self)
{
	uint32_t present = wp->group[gi].arrived;

	for (unsigned i = 0; i < 32; i++) {
		Fiber *g = wp->waiting[i];

		if (!(present >> i & 1))
			continue;
		memcpy(g->wv, wp->val, sizeof g->wv);
		g->wpresent = present;
		wp->waiting[i] = NULL;
		if (g != self)
			make_ready(l, g);
	}
	wp->group[gi] = wp->group[--wp->ngroup];
}

static int warp_complete(const Warp *wp, const WarpGroup *g)
{
	return g->arrived != 0 && ((g->arrived | wp->done) & g->need) == g->need;
}

static int named_warp_arrived(Launch *l, NamedBarrier *nb, unsigned w,
                              Fiber *self);
static void group_returned(Launch *l, unsigned gi);

/* A thread returned: its lane no longer holds a warp operation up, nor
 * its warp's arrival at a named barrier. */
static void warp_returned(Launch *l, unsigned lin)
{
	Warp *wp = &l->warps[lin / 32];
	unsigned gi = 0;

	wp->done |= 1u << (lin % 32);
	while (gi < wp->ngroup)
		if (warp_complete(wp, &wp->group[gi]))
			warp_release(l, wp, gi, NULL);   /* moves the last to gi */
		else
			gi++;
	for (unsigned id = 0; id < NAMED_BARRIERS; id++)
		if (l->named[id].lanes[lin / 32] != 0)
			named_warp_arrived(l, &l->named[id], lin / 32, NULL);
	group_returned(l, lin / 128);
}

/* The rendezvous: returns every lane's operand (indexed by lane) and, in
 * *present, the lanes that took part. */
static const uint64_t *warp_exchange(uint32_t mask, uint64_t v, uint32_t *present)
{
	static _Thread_local uint64_t lone_val[32];
	Launch *l = running;
	Fiber *f;
	Warp *wp;
	WarpGroup *g;
	unsigned lane, gi;

	if (l == NULL) {              /* a kernel called directly: one lane */
		lone_val[0] = v;
		*present = 1;
		return lone_val;
	}
	f = l->cur;
	lane = f->lin % 32;
	wp = &l->warps[f->lin / 32];
	for (gi = 0; gi < wp->ngroup && wp->group[gi].mask != mask; gi++)
		;
	g = &wp->group[gi];
	if (gi == wp->ngroup) {
		wp->ngroup++;
		g->mask = mask;
		g->arrived = g->need = 0;
	}
	wp->val[lane] = v;
	wp->waiting[lane] = f;
	g->arrived |= 1u << lane;
	g->need |= (mask | 1u << lane) & warp_lanes(l, f->lin / 32);
	if (warp_complete(wp, g))
		warp_release(l, wp, gi, f);
	else
		to_scheduler(l, f, 0);
	*present = f->wpresent;
	return f->wv;
}

static unsigned my_lane(void)
{
	Launch *l = running;

	return l != NULL ? l->cur->lin % 32 : 0;
}

unsigned __oxide_host_laneid(void) { return my_lane(); }
unsigned __oxide_host_warpid(void) { return running != NULL ? running->cur->lin / 32 : 0; }
unsigned __oxide_host_smid(void) { return 0; }
unsigned __oxide_host_lanemask_eq(void) { return 1u << my_lane(); }
unsigned __oxide_host_lanemask_lt(void) { return (1u << my_lane()) - 1; }
unsigned __oxide_host_lanemask_le(void) { return (2u << my_lane()) - 1; }   /* lane 31: 2^32 - 1 */
unsigned __oxide_host_lanemask_gt(void) { return ~((2u << my_lane()) - 1); }
unsigned __oxide_host_lanemask_ge(void) { return ~((1u << my_lane()) - 1); }

unsigned __oxide_host_activemask(void)
{
	Launch *l = running;
	unsigned w;

	if (l == NULL)
		return 1;
	/* The lanes of the warp: lanes run one after another here, so
	 * "not yet returned" would depend on the emulator's order, not on the
	 * program; a converged warp (the only case CUDA defines) has them all. */
	w = l->cur->lin / 32;
	return warp_lanes(l, w);
}

/* shfl.sync's lane selection (PTX ISA, "shfl.sync"): c packs the segment
 * mask (bits 8..12) and the clamp lane (bits 0..4); only the low 5 bits of
 * b count. Segments of width w: c = (32 - w) << 8 | clamp. */
enum { SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_IDX };

static unsigned shfl(int mode, uint32_t mask, unsigned v, unsigned b, unsigned c)
{
	uint32_t present;
	const uint64_t *val = warp_exchange(mask, v, &present);
	unsigned lane = my_lane(), seg = c >> 8 & 0x1f, clamp = c & 0x1f;

	b &= 0x1f;
	unsigned min_lane = lane & seg, max_lane = min_lane | (clamp & ~seg);
	unsigned j;
	int ok;

	switch (mode) {
	case SHFL_UP:
		j = lane - b;
		ok = (int)j >= (int)max_lane;
		break;
	case SHFL_DOWN:
		j = lane + b;
		ok = j <= max_lane;
		break;
	case SHFL_BFLY:
		j = lane ^ b;
		ok = j <= max_lane;
		break;
	default:
		j = min_lane | (b & ~seg);
		ok = j <= max_lane;
		break;
	}
	if (!ok || !(present >> j & 1))
		return v;             /* out of range: the lane's own value */
	return (unsigned)val[j];
}

unsigned __oxide_host_shfl_idx(unsigned mask, unsigned v, unsigned b, unsigned c) { return shfl(SHFL_IDX, mask, v, b, c); }
unsigned __oxide_host_shfl_up(unsigned mask, unsigned v, unsigned b, unsigned c) { return shfl(SHFL_UP, mask, v, b, c); }
unsigned __oxide_host_shfl_down(unsigned mask, unsigned v, unsigned b, unsigned c) { return shfl(SHFL_DOWN, mask, v, b, c); }
unsigned __oxide_host_shfl_bfly(unsigned mask, unsigned v, unsigned b, unsigned c) { return shfl(SHFL_BFLY, mask, v, b, c); }

/* ballot of the lanes that took part */
unsigned __oxide_host_vote_ballot(unsigned mask, unsigned pred)
{
	uint32_t present, r = 0;
	const uint64_t *val = warp_exchange(mask, pred != 0, &present);

	for (unsigned i = 0; i < 32; i++)
		if ((present >> i & 1) && val[i])
			r |= 1u << i;
	return r;
}

unsigned __oxide_host_vote_all(unsigned mask, unsigned pred)
{
	uint32_t present, b;
	const uint64_t *val = warp_exchange(mask, pred != 0, &present);

	b = 0;
	for (unsigned i = 0; i < 32; i++)
		if ((present >> i & 1) && val[i])
			b |= 1u << i;
	return b == present;
}

unsigned __oxide_host_vote_any(unsigned mask, unsigned pred)
{
	return __oxide_host_vote_ballot(mask, pred) != 0;
}

static unsigned match_any(uint32_t mask, uint64_t v)
{
	uint32_t present, r = 0;
	const uint64_t *val = warp_exchange(mask, v, &present);

	for (unsigned i = 0; i < 32; i++)
		if ((present >> i & 1) && val[i] == v)
			r |= 1u << i;
	return r;
}

unsigned __oxide_host_match_any_b32(unsigned mask, unsigned v) { return match_any(mask, v); }
unsigned __oxide_host_match_any_b64(unsigned mask, unsigned long long v) { return match_any(mask, v); }

/* match.all.sync's d: the lanes that took part when all have v, else 0 */
static unsigned match_all(uint32_t mask, uint64_t v)
{
	uint32_t present;
	const uint64_t *val = warp_exchange(mask, v, &present);

	for (unsigned i = 0; i < 32; i++)
		if ((present >> i & 1) && val[i] != v)
			return 0;
	return present;
}

unsigned __oxide_host_match_all_b32(unsigned mask, unsigned v) { return match_all(mask, v); }
unsigned __oxide_host_match_all_b64(unsigned mask, unsigned long long v) { return match_all(mask, v); }

/* bar.warp.sync: a rendezvous of the lanes of mask, exchanging nothing */
void __oxide_host_syncwarp(unsigned mask)
{
	uint32_t present;

	(void)warp_exchange(mask, 0, &present);
}

enum { RED_ADD, RED_UMIN, RED_UMAX, RED_MIN, RED_MAX, RED_AND, RED_OR, RED_XOR };

static unsigned redux(int op, uint32_t mask, unsigned v)
{
	uint32_t present;
	const uint64_t *val = warp_exchange(mask, v, &present);
	unsigned r = v;
	int first = 1;

	for (unsigned i = 0; i < 32; i++) {
		unsigned x;

		if (!(present >> i & 1))
			continue;
		x = (unsigned)val[i];
		if (first) {
			r = x;
			first = 0;
			continue;
		}
		switch (op) {
		case RED_ADD: r += x; break;
		case RED_UMIN: r = x < r ? x : r; break;
		case RED_UMAX: r = x > r ? x : r; break;
		case RED_MIN: r = (int)x < (int)r ? x : r; break;
		case RED_MAX: r = (int)x > (int)r ? x : r; break;
		case RED_AND: r &= x; break;
		case RED_OR: r |= x; break;
		default: r ^= x; break;
		}
	}
	return r;
}

unsigned __oxide_host_redux_add(unsigned mask, unsigned v) { return redux(RED_ADD, mask, v); }
unsigned __oxide_host_redux_umin(unsigned mask, unsigned v) { return redux(RED_UMIN, mask, v); }
unsigned __oxide_host_redux_umax(unsigned mask, unsigned v) { return redux(RED_UMAX, mask, v); }
unsigned __oxide_host_redux_min(unsigned mask, unsigned v) { return redux(RED_MIN, mask, v); }
unsigned __oxide_host_redux_max(unsigned mask, unsigned v) { return redux(RED_MAX, mask, v); }
unsigned __oxide_host_redux_and(unsigned mask, unsigned v) { return redux(RED_AND, mask, v); }
unsigned __oxide_host_redux_or(unsigned mask, unsigned v) { return redux(RED_OR, mask, v); }
unsigned __oxide_host_redux_xor(unsigned mask, unsigned v) { return redux(RED_XOR, mask, v); }

/* bar.red.popc / .and / .or: a barrier that counts the true predicates
 * (pick_fiber keeps the count of the barrier it releases). */
unsigned __oxide_host_barrier_popc(unsigned pred)
{
	Launch *l = running;

	if (l == NULL)
		return pred != 0;
	l->bar_count += pred != 0;
	__oxide_host_barrier_sync();
	return l->bar_result;
}

unsigned __oxide_host_barrier_and(unsigned pred)
{
	Launch *l = running;
	unsigned n = __oxide_host_barrier_popc(pred);

	return l != NULL ? n == l->bar_live : n;
}

unsigned __oxide_host_barrier_or(unsigned pred)
{
	return __oxide_host_barrier_popc(pred) != 0;
}

/* The barrier completes: every waiting fiber but self (the running one,
 * or NULL) becomes ready, in arrival order, and it starts over. */
static void named_release(Launch *l, NamedBarrier *nb, Fiber *self)
{
	for (unsigned i = 0; i < nb->nwaiting; i++)
		if (nb->waiting[i] != self)
			make_ready(l, nb->waiting[i]);
	named_reset(nb);
}

/* Counts warp w once every lane of it that has not returned arrived;
 * releases the barrier when the count is reached. 1 when it released. */
static int named_warp_arrived(Launch *l, NamedBarrier *nb, unsigned w,
                              Fiber *self)
{
	uint32_t all = warp_lanes(l, w);

	if ((nb->counted >> w & 1) || ((nb->lanes[w] | l->warps[w].done) & all) != all)
		return 0;
	nb->counted |= 1u << w;
	if (32u * (unsigned)__builtin_popcount(nb->counted) < nb->threads)
		return 0;
	named_release(l, nb, self);
	return 1;
}

/* barrier.sync / barrier.arrive id, threads: the running thread arrives,
 * and with wait, waits until the barrier completes. */
static void named_barrier(unsigned id, unsigned threads, int wait)
{
	Launch *l = running;
	NamedBarrier *nb;
	Fiber *f;
	unsigned w;

	if (l == NULL)                /* a kernel called directly: one thread */
		return;
	f = l->cur;
	if (id >= NAMED_BARRIERS || threads == 0 || threads % 32 != 0 ||
	    threads > 32 * l->nwarps) {
		snprintf(l->trap_why, sizeof l->trap_why, "barrier_%s(%u, %u) "
		         "is undefined on a GPU: the id must be below 16 and the "
		         "thread count a nonzero multiple of 32, at most 32 times "
		         "the block's %u warps", wait ? "sync" : "arrive", id,
		         threads, l->nwarps);
		stop_launch(STOP_ERROR);
	}
	nb = &l->named[id];
	if (nb->waiting == NULL) {
		nb->waiting = calloc(l->nthreads, sizeof *nb->waiting);
		if (nb->waiting == NULL) {
			snprintf(l->trap_why, sizeof l->trap_why, "no memory "
			         "for the emulation of named barrier %u", id);
			stop_launch(STOP_ERROR);
		}
	}
	w = f->lin / 32;
	nb->threads = threads;
	nb->lanes[w] |= 1u << (f->lin % 32);
	if (wait)
		nb->waiting[nb->nwaiting++] = f;
	if (!named_warp_arrived(l, nb, w, f) && wait)
		to_scheduler(l, f, 0);
}

void __oxide_host_barrier_sync_count(unsigned id, unsigned threads) { named_barrier(id, threads, 1); }
void __oxide_host_barrier_arrive_count(unsigned id, unsigned threads) { named_barrier(id, threads, 0); }

/* One thread runs at a time: fences order nothing more. */
/* ---- thread-block clusters: a cluster's blocks run together (Cluster,
 * run_cluster); each has its own shared memory, static and dynamic.
 *
 * barrier.cluster: an arrival counts in the current phase; the phase
 * completes when every thread of the cluster that has not exited arrived
 * (a thread that exits no longer counts), and releases the threads that
 * wait for it, in every block. A thread arrives once, then waits, then
 * may arrive again: a second arrival before the wait, or a wait without
 * an arrival, is undefined on a GPU and fails the launch here. A block
 * whose threads wait for the cluster lets the other blocks run (its
 * bar.sync waits for them too); when no thread of the cluster can go on,
 * the launch fails as a hang.
 *
 * mapa: a pointer into the running block's shared memory becomes the same
 * offset in block `rank`'s, a host address that plain loads, stores and
 * atomics reach (the GPU's generic addressing does the same). A pointer
 * outside this block's shared memory, a rank beyond the cluster, or a
 * block that has exited (its shared memory is gone) fails the launch; so
 * does an access through a pointer mapped before its block exited (the
 * exited block's pages are inaccessible: exited_access). ---- */

static unsigned cluster_rank(void)
{
	OxDim3 d = here.cdim, c = {here.ctaid.x % d.x, here.ctaid.y % d.y, here.ctaid.z % d.z};

	return c.x + d.x * (c.y + d.y * c.z);
}

unsigned __oxide_host_cluster_ctarank(void) { return cluster_rank(); }
unsigned __oxide_host_cluster_nctarank(void) { return here.cdim.x * here.cdim.y * here.cdim.z; }
unsigned __oxide_host_cluster_ctaid_x(void) { return here.ctaid.x % here.cdim.x; }
unsigned __oxide_host_cluster_ctaid_y(void) { return here.ctaid.y % here.cdim.y; }
unsigned __oxide_host_cluster_ctaid_z(void) { return here.ctaid.z % here.cdim.z; }
unsigned __oxide_host_cluster_nctaid_x(void) { return here.cdim.x; }
unsigned __oxide_host_cluster_nctaid_y(void) { return here.cdim.y; }
unsigned __oxide_host_cluster_nctaid_z(void) { return here.cdim.z; }
unsigned __oxide_host_clusterid_x(void) { return here.ctaid.x / here.cdim.x; }
unsigned __oxide_host_clusterid_y(void) { return here.ctaid.y / here.cdim.y; }
unsigned __oxide_host_clusterid_z(void) { return here.ctaid.z / here.cdim.z; }
unsigned __oxide_host_nclusterid_x(void) { return here.nctaid.x / here.cdim.x; }
unsigned __oxide_host_nclusterid_y(void) { return here.nctaid.y / here.cdim.y; }
unsigned __oxide_host_nclusterid_z(void) { return here.nctaid.z / here.cdim.z; }
unsigned __oxide_host_is_explicit_cluster(void) { return here.explicit_cluster; }

/* The current phase is complete: its waiters, in every block, go on. */
static void cluster_release(Cluster *c)
{
	c->phase++;
	c->narrived = 0;
	for (unsigned r = 0; r < c->n; r++) {
		Launch *b = &c->blocks[r];

		for (unsigned i = 0; i < b->ncwait; i++)
			make_ready(b, b->cwait[i]);
		b->ncwait = 0;
	}
}

void __oxide_host_barrier_cluster_arrive(void)
{
	Launch *l = running;
	Cluster *c;
	unsigned *mine;

	if (l == NULL)                /* a kernel called directly: one thread */
		return;
	c = l->cluster;
	mine = &l->carrived[l->cur->lin];
	if (*mine != 0)
		fail_launch("barrier_cluster_arrive twice without a barrier_cluster_wait between (undefined on a GPU)");
	*mine = c->phase + 1;
	if (++c->narrived == c->live)
		cluster_release(c);
}

void __oxide_host_barrier_cluster_wait(void)
{
	Launch *l = running;
	unsigned *mine;

	if (l == NULL)
		return;
	mine = &l->carrived[l->cur->lin];
	if (*mine == 0)
		fail_launch("barrier_cluster_wait without a barrier_cluster_arrive before it (undefined on a GPU)");
	if (l->cluster->phase < *mine) {  /* its phase is not complete yet */
		l->cwait[l->ncwait++] = l->cur;
		to_scheduler(l, l->cur, 0);
	}
	*mine = 0;
}

/* A thread returned: the barrier no longer waits for it. */
static void cluster_returned(Launch *l, unsigned lin)
{
	Cluster *c = l->cluster;

	c->live--;
	if (l->carrived[lin] == c->phase + 1)
		c->narrived--;
	l->carrived[lin] = 0;
	if (c->live > 0 && c->narrived == c->live)
		cluster_release(c);
}

/* No thread of the cluster can go on, yet some wait for its barrier. */
static int cluster_hang(Cluster *c)
{
	for (unsigned r = 0; r < c->n; r++) {
		Launch *b = &c->blocks[r];

		if (b->ncwait == 0)
			continue;
		b->trapped = STOP_ERROR;
		b->trap_block = b->ctaid;
		b->trap_thread = b->cwait[0]->tid;
		snprintf(b->trap_why, sizeof b->trap_why, "it would hang on a GPU: %u threads of this block wait "
		         "forever at barrier_cluster_wait, for which %u of the cluster's %u threads that have "
		         "not exited arrived", b->ncwait, c->narrived, c->live);
		return -1;
	}
	return -1;
}

void *__oxide_host_mapa(void *p, unsigned rank)
{
	Launch *l = running;
	Cluster *c;
	uintptr_t a = (uintptr_t)p, base;

	if (l == NULL)
		return rank == 0 ? p : NULL;
	c = l->cluster;
	base = (uintptr_t)l->shmem;
	if (a < base || a - base >= c->stride)
		fail_launch("mapa of %p, which is not in this block's shared memory (undefined on a GPU)", p);
	if (rank >= c->n)
		fail_launch("mapa to block rank %u of a cluster of %u blocks (undefined on a GPU)", rank, c->n);
	if (c->blocks[rank].finished)
		fail_launch("mapa to block rank %u of the cluster, which has exited: its shared memory is gone "
		            "(undefined on a GPU: end with cluster::sync() while other blocks use it)", rank);
	return c->blocks[rank].shmem + (a - base);
}

void __oxide_host_fence_block(void) {}
void __oxide_host_fence_device(void) {}
void __oxide_host_fence_system(void) {}

static unsigned long long now_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

/* The cycle counters count host nanoseconds. */
unsigned __oxide_host_clock(void) { return (unsigned)now_ns(CLOCK_MONOTONIC); }
unsigned long long __oxide_host_clock64(void) { return now_ns(CLOCK_MONOTONIC); }
unsigned long long __oxide_host_globaltimer(void) { return now_ns(CLOCK_REALTIME); }

/* A hint on the GPU; the other threads of an emulated block run only
 * when this one waits, so sleeping would only slow the emulation. */
void __oxide_host_nanosleep(unsigned ns) { (void)ns; }

/* ------------------------------------------------- modules and kernels */

static int emu_module_load(OxModule *m, const char *path)
{
	char local[600];
	const char *file = path, *err;
	void *h;

	m->handle = NULL;
	if (strchr(path, '/') == NULL) {   /* dlopen would search LD paths */
		snprintf(local, sizeof local, "./%s", path);
		file = local;
	}
	if (access(file, R_OK) != 0)
		return oxrt_set_error(-1, "cannot read module %s: %s", path,
		                      strerror(errno));
	h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		err = dlerror();
		oxrt_set_error(OX_CUDA_INVALID_IMAGE, "ox_module_load(%s): "
		               "CUDA_ERROR_INVALID_IMAGE (emulated: %s)", path,
		               err != NULL ? err : "dlopen failed");
		if (err != NULL && strstr(err, "__oxide_host_") != NULL)
			oxrt_append_error("\n  the module calls the emulator's "
			                  "__oxide_host_* functions: link the host "
			                  "program with src/runtime/oxemu.c and "
			                  "-rdynamic, which exports them");
		return -1;
	}
	if (dlsym(h, "__oxide_kernels") == NULL) {
		dlclose(h);
		return oxrt_set_error(OX_CUDA_INVALID_IMAGE, "ox_module_load(%s): "
		                      "CUDA_ERROR_INVALID_IMAGE (emulated: not a "
		                      "module made by oxidec --target=host)", path);
	}
	m->handle = h;
	return 0;
}

static void emu_module_unload(OxModule *m)
{
	if (m->handle != NULL)
		dlclose(m->handle);
	m->handle = NULL;
}

static int emu_function(OxFunc *f, const OxModule *m, const char *name)
{
	char sym[300];
	const char *names;

	if (m->handle == NULL)
		return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_function(%s): "
		                      "module %s is not loaded", name, m->path);
	snprintf(sym, sizeof sym, "__oxide_launch_%s", name);
	f->handle = dlsym(m->handle, sym);
	f->module = m->handle;        /* a launch reads __oxide_cluster_<name> */
	if (f->handle != NULL)
		return 0;
	oxrt_set_error(OX_CUDA_NOT_FOUND, "ox_function(%s): CUDA_ERROR_NOT_FOUND "
	               "(emulated: no kernel of that name)\n  in module %s",
	               name, m->path);
	names = dlsym(m->handle, "__oxide_kernels");
	if (names != NULL && *names != '\0') {
		oxrt_append_error("\n  kernels in this module:");
		for (; *names != '\0'; names += strlen(names) + 1)
			oxrt_append_error(" %s", names);
	}
	return -1;
}

/* --------------------------------------------------- memory and events */

static void *host_ptr(OxDevPtr p)
{
	return (void *)(uintptr_t)p;
}

/* Device memory belongs to the emulated context, as a CUDA context's
 * does: every block is on a list until ox_free or ox_shutdown, so memory a
 * program leaves to the end of the process (fine on a GPU) is reachable,
 * not leaked. A header of ALLOC_HEADER bytes keeps the block 256-byte
 * aligned, as cuMemAlloc's allocations are at least. */
typedef struct Alloc {
	struct Alloc *prev, *next;
	size_t bytes;
} Alloc;

enum { ALLOC_HEADER = 256 };

static Alloc allocs = {&allocs, &allocs, 0};

static int emu_alloc(OxDevPtr *p, size_t bytes)
{
	void *mem = NULL;
	Alloc *a;

	if (bytes == 0)
		return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_alloc(0 bytes): "
		                      "CUDA_ERROR_INVALID_VALUE (emulated)");
	if (bytes > SIZE_MAX - ALLOC_HEADER ||
	    posix_memalign(&mem, 256, ALLOC_HEADER + bytes) != 0)
		return oxrt_set_error(OX_CUDA_OUT_OF_MEMORY, "ox_alloc(%zu bytes): "
		                      "CUDA_ERROR_OUT_OF_MEMORY (emulated)", bytes);
	a = mem;
	a->bytes = bytes;
	a->next = allocs.next;
	a->prev = &allocs;
	allocs.next->prev = a;
	allocs.next = a;
	*p = (OxDevPtr)(uintptr_t)((char *)mem + ALLOC_HEADER);
	return 0;
}

static void release(Alloc *a)
{
	a->prev->next = a->next;
	a->next->prev = a->prev;
	free(a);
}

/* The list is searched (not a header read) so that a bad or freed
 * pointer is an error, never a read of memory it may not point into. */
static int emu_free(OxDevPtr p)
{
	Alloc *a;

	if (p == 0)
		return 0;
	for (a = allocs.next; a != &allocs; a = a->next)
		if ((char *)a + ALLOC_HEADER == host_ptr(p)) {
			release(a);
			return 0;
		}
	return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_free(0x%llx): "
		                      "CUDA_ERROR_INVALID_VALUE (emulated: not "
		                      "an allocation of ox_alloc, or freed "
		                      "already)", (unsigned long long)p);
}

static void emu_close(void)
{
	while (allocs.next != &allocs)
		release(allocs.next);
	trap.pending = 0;
}

static int emu_copy_to_device(OxDevPtr dst, const void *src, size_t bytes)
{
	memcpy(host_ptr(dst), src, bytes);
	return 0;
}

static int emu_copy_from_device(void *dst, OxDevPtr src, size_t bytes)
{
	if (emu_synchronize("ox_copy_from_device", "device to host") != 0)
		return -1;
	memcpy(dst, host_ptr(src), bytes);
	return 0;
}

static int emu_memset8(OxDevPtr p, unsigned char value, size_t bytes)
{
	memset(host_ptr(p), value, bytes);
	return 0;
}

static int emu_memset32(OxDevPtr p, uint32_t value, size_t count)
{
	uint32_t *w = host_ptr(p);

	for (size_t i = 0; i < count; i++)
		w[i] = value;
	return 0;
}

static int emu_event_create(OxEvent *e)
{
	e->handle = calloc(1, sizeof(struct timespec));
	if (e->handle == NULL)
		return oxrt_set_error(OX_CUDA_OUT_OF_MEMORY, "ox_event_create: "
		                      "CUDA_ERROR_OUT_OF_MEMORY (emulated)");
	return 0;
}

static int emu_event_record(OxEvent *e)
{
	clock_gettime(CLOCK_MONOTONIC, e->handle);
	return 0;
}

static int emu_event_elapsed_ms(float *ms, OxEvent *start, OxEvent *end)
{
	const struct timespec *a = start->handle, *b = end->handle;

	if (emu_synchronize("ox_event_elapsed_ms", "end event") != 0)
		return -1;
	*ms = (float)((double)(b->tv_sec - a->tv_sec) * 1e3 +
	              (double)(b->tv_nsec - a->tv_nsec) / 1e6);
	return 0;
}

static void emu_event_destroy(OxEvent *e)
{
	free(e->handle);
	e->handle = NULL;
}

/* ------------------------------------------- shared, constant, printf */

/* The emulated shared memory window: dynamic shared memory starts at this
 * 32-bit shared address (a multiple of 1024, nonzero so that a null
 * pointer is no shared address); see __oxide_host_smem_addr. */
enum { SMEM_BASE = 0x400 };
/* the most shared memory a block of sm_90 has: 227 KiB */
enum { SMEM_MAX = 227 * 1024 };

static int emu_set_stack_size(size_t bytes)
{
	stack_limit = bytes;
	return 0;
}

static int emu_stack_size(size_t *bytes)
{
	*bytes = stack_limit;
	return 0;
}

void *__oxide_host_dynamic_shared(void)
{
	static _Alignas(16) unsigned char none[16];
	return dyn_shared.buf != NULL ? dyn_shared.buf : none;
}

/* The running block's Shared<T> statics (oxidec --target=host makes each
 * an offset in them). A kernel called directly gets one block's worth:
 * 48 KiB, the most static shared memory a GPU block has. */
void *__oxide_host_static_shared(void)
{
	static _Alignas(1024) unsigned char direct[48 << 10];
	Launch *l = running;

	return l != NULL ? l->shmem + l->cluster->static_off : direct;
}

/* A module's global (a Constant<T> static, exported under its name): its
 * address in the .so is its "device" address; the size from the ELF
 * symbol. */
static int emu_module_global(const OxModule *m, const char *name,
                             OxDevPtr *ptr, size_t *size)
{
	void *p = m->handle != NULL ? dlsym(m->handle, name) : NULL;
	Dl_info info;
	const ElfW(Sym) *sym = NULL;

	if (p == NULL)
		return oxrt_set_error(OX_CUDA_NOT_FOUND, "ox_module_global(%s): "
		                      "CUDA_ERROR_NOT_FOUND (emulated: no symbol "
		                      "in %s)", name, m->path);
	if (ptr != NULL)
		*ptr = (OxDevPtr)(uintptr_t)p;
	if (size != NULL) {
		*size = 0;
		if (dladdr1(p, &info, (void **)&sym, RTLD_DL_SYMENT) != 0 &&
		    sym != NULL)
			*size = sym->st_size;
	}
	return 0;
}

/* CUDA's vprintf: fmt is C's printf format, args the arguments packed
 * each at a multiple of its size (%c %d %i %u %x %X %o: 4 bytes, with l
 * or ll: 8; floating point: 8, a double; %p %s: 8, an address). Prints
 * to stdout at once; returns the number of arguments, or -1 on a format
 * it does not know. */
int __oxide_host_vprintf(const char *fmt, const unsigned char *args)
{
	size_t off = 0;
	int nargs = 0;

	for (const char *s = fmt; *s != '\0'; s++) {
		char spec[64];
		size_t n = 0;
		int longs = 0, star = 0;
		if (*s != '%') {
			putchar(*s);
			continue;
		}
		if (s[1] == '%') {
			putchar('%');
			s++;
			continue;
		}
		spec[n++] = *s++;
		while (*s != '\0' && strchr("-+ #0123456789.*hlLqjzt", *s) != NULL) {
			if (*s == 'l' || *s == 'q' || *s == 'j' || *s == 'z' || *s == 't' || *s == 'L')
				longs++;
			else if (*s == '*')
				star++;
			if (n < sizeof spec - 2 && *s != 'h' && *s != 'l' && *s != 'q' &&
			    *s != 'j' && *s != 'z' && *s != 't' && *s != 'L')
				spec[n++] = *s;
			s++;
		}
		if (*s == '\0' || star) {
			fflush(stdout);
			return -1;
		}
		char conv = *s;
		unsigned size = strchr("fFeEgGaApsn", conv) != NULL || longs ? 8 : 4;
		off = (off + size - 1) / size * size;
		if (args == NULL) {
			fflush(stdout);
			return -1;
		}
		const unsigned char *a = args + off;
		off += size;
		nargs++;
		if (strchr("cdiuxXo", conv) != NULL && size == 8) {
			spec[n++] = 'l';
			spec[n++] = 'l';
		}
		spec[n++] = conv;
		spec[n] = '\0';
		if (strchr("fFeEgGaA", conv) != NULL) {
			double d;
			memcpy(&d, a, 8);
			printf(spec, d);
		} else if (conv == 'p' || conv == 's') {
			uint64_t u;
			memcpy(&u, a, 8);
			printf(spec, (void *)(uintptr_t)u);
		} else if (size == 8) {
			long long v;
			memcpy(&v, a, 8);
			printf(spec, v);
		} else if (strchr("cdiuxXo", conv) != NULL) {
			int v;
			memcpy(&v, a, 4);
			printf(spec, v);
		} else {
			fflush(stdout);
			return -1;
		}
	}
	fflush(stdout);
	return nargs;
}

/* ------------------------------------------------------ the backend */

/* Always there: nothing to open. */
static int emu_open(void)
{
	return 0;
}

static int emu_device_name(char *buf, int len)
{
	snprintf(buf, (size_t)len, "host CPU (oxrt emulation)");
	return 0;
}

static const unsigned *kernel_cluster(const OxFunc *f);

/* The cluster shape (__oxide_cluster_<K>, 0s: none); no other. */
static int emu_func_attribute(int *value, int attrib, const OxFunc *f)
{
	const unsigned *own = kernel_cluster(f);

	if (attrib >= OX_FUNC_REQUIRED_CLUSTER_WIDTH && attrib <= OX_FUNC_REQUIRED_CLUSTER_DEPTH) {
		*value = own != NULL ? (int)own[attrib - OX_FUNC_REQUIRED_CLUSTER_WIDTH] : 0;
		return 0;
	}
	return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_func_attribute(%s): "
	                      "CUDA_ERROR_INVALID_VALUE (emulated: kernel "
	                      "attributes but the cluster shape exist only on the GPU)", f->name);
}

/* Any amount the program asks for is there: nothing to do. */
static int emu_func_set_max_dynamic_shared(const OxFunc *f, unsigned bytes)
{
	(void)f, (void)bytes;
	return 0;
}

/* The emulator's tensor map (the 128 bytes of an OxTensorMap): a magic
 * word, then the description as ox_tensor_map_encode checked it; the
 * kernel's TMA copies read it back from where the map is: a by-value
 * kernel parameter (the launch's copy of its bytes) or device memory. */
enum { TMAP_MAGIC = 0x50414d54u };   /* "TMAP" */
typedef struct {
	uint32_t magic, unused;
	OxTensorMapDesc desc;
} EmuTensorMap;
_Static_assert(sizeof(EmuTensorMap) <= sizeof(OxTensorMap), "the emulator's tensor map fits in 128 bytes");

static int emu_tensor_map_encode(OxTensorMap *map, const OxTensorMapDesc *d)
{
	EmuTensorMap m = {TMAP_MAGIC, 0, *d};

	memset(map->bytes, 0, sizeof map->bytes);
	memcpy(map->bytes, &m, sizeof m);
	return 0;
}

/* The kernel's #[kernel(cluster(..))] shape, or NULL. */
static const unsigned *kernel_cluster(const OxFunc *f)
{
	char sym[300];

	snprintf(sym, sizeof sym, "__oxide_cluster_%s", f->name);
	return f->module != NULL ? dlsym(f->module, sym) : NULL;
}

/* The cluster shape of a launch: the kernel's own (__oxide_cluster_K,
 * #[kernel(cluster(..))]), else the launch's (ox_launch_cluster; 0s:
 * none), else 1x1x1; checked as cuLaunchKernelEx does: at most 8 blocks
 * (the portable size), dividing the grid, the same as the kernel's. */
static int launch_cluster(const OxFunc *f, OxDim3 grid, OxDim3 given, Cluster *c)
{
	const unsigned *own = kernel_cluster(f);
	OxDim3 d = given;
	const char *why = NULL;

	if (own != NULL && given.x != 0 && (given.x != own[0] || given.y != own[1] || given.z != own[2]))
		why = "the kernel's #[kernel(cluster(..))] fixes another shape";
	if (own != NULL)
		d = (OxDim3){own[0], own[1], own[2]};
	c->explicit_dims = d.x != 0;
	if (d.x == 0)
		d = (OxDim3){1, 1, 1};
	if (why == NULL && (d.y == 0 || d.z == 0))
		why = "a cluster dimension is 0";
	else if (why == NULL && (unsigned long long)d.x * d.y * d.z > 8)
		why = "a cluster has at most 8 blocks (the portable size)";
	else if (why == NULL && (grid.x % d.x || grid.y % d.y || grid.z % d.z))
		why = "the grid is not a whole number of clusters";
	c->dim = d;
	if (why == NULL)
		return 0;
	return oxrt_set_error(OX_CUDA_INVALID_CLUSTER_SIZE, "ox_launch(%s in %s, grid %ux%ux%u, cluster %ux%ux%u): "
	                      "CUDA_ERROR_INVALID_CLUSTER_SIZE (emulated: %s)", f->name, f->path, grid.x, grid.y,
	                      grid.z, d.x, d.y, d.z, why);
}

/* The whole grid runs before it returns (see the header). */
static int emu_launch(const OxFunc *f, OxDim3 grid, OxDim3 block, OxDim3 cluster,
                      unsigned shared_bytes, void **args)
{
	Cluster c;
	const unsigned *stat;

	memset(&c, 0, sizeof c);
	if (check_dims(f, grid, block) != 0 || launch_cluster(f, grid, cluster, &c) != 0)
		return -1;
	stat = f->module != NULL ? dlsym(f->module, "__oxide_static_shared_bytes") : NULL;
	return run_launch(f, &c, grid, block, shared_bytes, stat != NULL ? *stat : 0, args);
}

/* The names of the codes the emulator reports (no driver needed). */
static const char *emu_error_name(int code)
{
	static const struct {
		int code;
		const char *name;
	} names[] = {
		{OX_CUDA_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"},
		{OX_CUDA_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY"},
		{OX_CUDA_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE"},
		{OX_CUDA_NOT_FOUND, "CUDA_ERROR_NOT_FOUND"},
		{OX_CUDA_ASSERT, "CUDA_ERROR_ASSERT"},
		{OX_CUDA_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED"},
		{OX_CUDA_INVALID_CLUSTER_SIZE, "CUDA_ERROR_INVALID_CLUSTER_SIZE"},
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].code == code)
			return names[i].name;
	return NULL;
}

const OxBackend oxemu_backend = {
	.name = "host emulation",
	.device = "host emulation",
	.absent = "no emulator",
	.absent_hint = "",
	.open = emu_open,
	.close = emu_close,
	.device_name = emu_device_name,
	.module_load = emu_module_load,
	.module_unload = emu_module_unload,
	.function = emu_function,
	.func_attribute = emu_func_attribute,
	.func_set_max_dynamic_shared = emu_func_set_max_dynamic_shared,
	.tensor_map_encode = emu_tensor_map_encode,
	.module_global = emu_module_global,
	.mem_alloc = emu_alloc,
	.mem_free = emu_free,
	.copy_to_device = emu_copy_to_device,
	.copy_from_device = emu_copy_from_device,
	.memset8 = emu_memset8,
	.memset32 = emu_memset32,
	.launch = emu_launch,
	.synchronize = emu_synchronize,
	.set_stack_size = emu_set_stack_size,
	.stack_size = emu_stack_size,
	.event_create = emu_event_create,
	.event_record = emu_event_record,
	.event_elapsed_ms = emu_event_elapsed_ms,
	.event_destroy = emu_event_destroy,
	.error_name = emu_error_name,
};

/* ---- half precision conversions (the registry's cvt_* rows): PTX's
 * cvt.rn rounds to nearest even and gives the canonical NaN 0x7fff ---- */

unsigned short __oxide_host_cvt_rn_bf16_f32(float x)
{
	uint32_t u;
	memcpy(&u, &x, sizeof u);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return 0x7fff;
	u += 0x7fffu + ((u >> 16) & 1);
	return (unsigned short)(u >> 16);
}

unsigned short __oxide_host_cvt_rn_f16_f32(float x)
{
	uint32_t u;
	memcpy(&u, &x, sizeof u);
	uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
	if (a > 0x7f800000u)
		return 0x7fff;
	if (a >= 0x477ff000u)                  /* >= 65520: rounds to infinity */
		return (unsigned short)(sign | 0x7c00u);
	if (a < 0x38800000u) {                 /* below 2^-14: a multiple of 2^-24 */
		float f;
		memcpy(&f, &a, sizeof f);
		return (unsigned short)(sign | (uint32_t)nearbyint((double)f * 16777216.0));
	}
	a += 0xfffu + ((a >> 13) & 1);
	return (unsigned short)(sign | ((a - 0x38000000u) >> 13));
}

float __oxide_host_cvt_f32_f16(unsigned short h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, u;
	if (e == 0) {
		float f = ldexpf((float)m, -24);
		return sign ? -f : f;
	}
	if (e == 31 && m != 0)
		u = 0x7fffffffu;                   /* cvt.f32.f16 gives the canonical NaN */
	else
		u = sign | (e == 31 ? 0x7f800000u : ((e + 112) << 23) | (m << 13));
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

/* ---- half precision arithmetic and fp8 conversions (the registry's
 * fma/add/mul_rn_{f16,bf16}[x2], cvt_rn_*x2 rows).  A format is its
 * mantissa bits, its smallest normal exponent and its exponent bias.
 *
 * Why fma is rounded once: the operands are exactly doubles, and so is
 * the product a * b (at most 2 x 11 significant bits, exponents within
 * -266 .. 256, far inside double's range).  The sum p + c is not always
 * exact in double, so it is taken rounded to odd (the round-to-nearest
 * sum, moved by one ulp to the odd neighbour when TwoSum's error is not
 * zero and the sum is even): rounding a round-to-odd result of 53 bits
 * to a format of p <= 51 bits (here 11 at most) gives the correctly
 * rounded result (Boldo & Melquiond, "Emulation of FMA and correctly
 * rounded sums: proved algorithms using rounding to odd", 2008).  The
 * half formats' subnormals and overflow lie far inside double's normal
 * range, so the double steps never underflow or overflow.  add is
 * fma(a, 1, b) and mul fma(a, b, -0): the same exact value, the same
 * IEEE zero signs.  NaN results (NaN operands, inf - inf, 0 * inf) are
 * the canonical NaN 0x7fff. ---- */

struct half_fmt {
	int bits, mbits, emin, bias; /* width, mantissa bits, smallest normal exponent */
	int finite;                  /* no infinities, NaN S.1..1.1..1 (e4m3) */
};

static const struct half_fmt FMT_F16 = {16, 10, -14, 15, 0}, FMT_BF16 = {16, 7, -126, 127, 0},
			     FMT_E4M3 = {8, 3, -6, 7, 1}, FMT_E5M2 = {8, 2, -14, 15, 0};

/* the value of bits h */
static double half_decode(unsigned h, struct half_fmt f)
{
	unsigned mmask = (1u << f.mbits) - 1, emask = (1u << (f.bits - 1 - f.mbits)) - 1;
	unsigned m = h & mmask, e = (h >> f.mbits) & emask;
	double v;

	if (f.finite && e == emask && m == mmask)
		v = NAN;
	else if (e == emask && !f.finite)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp((double)m, f.emin - f.mbits);
	else
		v = ldexp((double)(m | (mmask + 1)), (int)e - f.bias - f.mbits);
	return (h >> (f.bits - 1)) & 1 ? -v : v;
}

/* x (not NaN) rounded to nearest even in format f: its bits; beyond the
 * largest exponent infinity's bits (all-ones exponent), unless f is finite
 * (the caller keeps x within its range).
 * x / quantum is exact (a power-of-two scaling) and below 2^(mbits+2),
 * so nearbyint (the default rounding mode: to nearest even) rounds it
 * once. */
static unsigned half_encode(double x, struct half_fmt f)
{
	unsigned sign = signbit(x) ? 1u << (f.bits - 1) : 0;
	unsigned emax_biased = (1u << (f.bits - 1 - f.mbits)) - 1;
	double a = fabs(x);

	if (a == 0)
		return sign;
	if (isinf(a))
		return sign | emax_biased << f.mbits;
	int e = ilogb(a);
	if (e < f.emin)
		e = f.emin;
	double n = nearbyint(ldexp(a, f.mbits - e)); /* multiples of 2^(e - mbits) */
	if (n >= ldexp(1.0, f.mbits + 1)) {          /* carried into the next binade */
		n /= 2;
		e++;
	}
	if (n < ldexp(1.0, f.mbits))                 /* subnormal (e == emin) or zero */
		return sign | (unsigned)n;
	if (e + f.bias >= (int)emax_biased && !f.finite)
		return sign | emax_biased << f.mbits;
	return sign | (unsigned)(e + f.bias) << f.mbits | ((unsigned)n & ((1u << f.mbits) - 1));
}

/* a * b + c (doubles, a * b exact) rounded to odd at 53 bits */
static double fma_round_odd(double a, double b, double c)
{
	double p = a * b, s = p + c;
	double bp = s - c, err = (p - bp) + (c - (s - bp)); /* TwoSum: p + c = s + err */
	uint64_t u;

	if (err == 0 || !isfinite(s))
		return s;
	memcpy(&u, &s, sizeof u);
	if (u & 1)
		return s;
	return nextafter(s, err > 0 ? INFINITY : -INFINITY);
}

static unsigned half_fma(unsigned a, unsigned b, unsigned c, struct half_fmt f)
{
	double r = fma_round_odd(half_decode(a, f), half_decode(b, f), half_decode(c, f));
	return isnan(r) ? 0x7fffu : half_encode(r, f);
}

/* lane i (0, 1) of each packed operand through half_fma */
static unsigned half2_fma(unsigned a, unsigned b, unsigned c, struct half_fmt f)
{
	unsigned lo = half_fma(a & 0xffffu, b & 0xffffu, c & 0xffffu, f);
	unsigned hi = half_fma(a >> 16, b >> 16, c >> 16, f);
	return hi << 16 | lo;
}

enum { HALF_ONE_F16 = 0x3c00, HALF_ONE_BF16 = 0x3f80, HALF_NEG0 = 0x8000 };

unsigned short __oxide_host_fma_rn_f16(unsigned short a, unsigned short b, unsigned short c)
{
	return (unsigned short)half_fma(a, b, c, FMT_F16);
}

unsigned short __oxide_host_add_rn_f16(unsigned short a, unsigned short b)
{
	return (unsigned short)half_fma(a, HALF_ONE_F16, b, FMT_F16);
}

unsigned short __oxide_host_mul_rn_f16(unsigned short a, unsigned short b)
{
	return (unsigned short)half_fma(a, b, HALF_NEG0, FMT_F16);
}

unsigned short __oxide_host_fma_rn_bf16(unsigned short a, unsigned short b, unsigned short c)
{
	return (unsigned short)half_fma(a, b, c, FMT_BF16);
}

unsigned short __oxide_host_add_rn_bf16(unsigned short a, unsigned short b)
{
	return (unsigned short)half_fma(a, HALF_ONE_BF16, b, FMT_BF16);
}

unsigned short __oxide_host_mul_rn_bf16(unsigned short a, unsigned short b)
{
	return (unsigned short)half_fma(a, b, HALF_NEG0, FMT_BF16);
}

unsigned __oxide_host_fma_rn_f16x2(unsigned a, unsigned b, unsigned c)
{
	return half2_fma(a, b, c, FMT_F16);
}

unsigned __oxide_host_add_rn_f16x2(unsigned a, unsigned b)
{
	return half2_fma(a, HALF_ONE_F16 * 0x10001u, b, FMT_F16);
}

unsigned __oxide_host_mul_rn_f16x2(unsigned a, unsigned b)
{
	return half2_fma(a, b, HALF_NEG0 * 0x10001u, FMT_F16);
}

unsigned __oxide_host_fma_rn_bf16x2(unsigned a, unsigned b, unsigned c)
{
	return half2_fma(a, b, c, FMT_BF16);
}

unsigned __oxide_host_add_rn_bf16x2(unsigned a, unsigned b)
{
	return half2_fma(a, HALF_ONE_BF16 * 0x10001u, b, FMT_BF16);
}

unsigned __oxide_host_mul_rn_bf16x2(unsigned a, unsigned b)
{
	return half2_fma(a, b, HALF_NEG0 * 0x10001u, FMT_BF16);
}

unsigned __oxide_host_cvt_rn_bf16x2_f32(float hi, float lo)
{
	return (unsigned)__oxide_host_cvt_rn_bf16_f32(hi) << 16 | __oxide_host_cvt_rn_bf16_f32(lo);
}

unsigned __oxide_host_cvt_rn_f16x2_f32(float hi, float lo)
{
	return (unsigned)__oxide_host_cvt_rn_f16_f32(hi) << 16 | __oxide_host_cvt_rn_f16_f32(lo);
}

/* f32 -> fp8 with .satfinite: NaN -> 0x7f; beyond the largest finite
 * value (infinities too) -> +-max finite, which is where rounding to
 * nearest would take them or beyond; else the f32 (exactly a double)
 * rounded once by half_encode. */
static unsigned fp8_satfinite(float x, struct half_fmt f, unsigned maxfin)
{
	if (isnan(x))
		return 0x7f;
	if (fabs((double)x) > half_decode(maxfin, f))
		return (signbit(x) ? 0x80u : 0) | maxfin;
	return half_encode(x, f);
}

unsigned short __oxide_host_cvt_rn_satfinite_e4m3x2_f32(float hi, float lo)
{
	return (unsigned short)(fp8_satfinite(hi, FMT_E4M3, 0x7e) << 8 | fp8_satfinite(lo, FMT_E4M3, 0x7e));
}

unsigned short __oxide_host_cvt_rn_satfinite_e5m2x2_f32(float hi, float lo)
{
	return (unsigned short)(fp8_satfinite(hi, FMT_E5M2, 0x7b) << 8 | fp8_satfinite(lo, FMT_E5M2, 0x7b));
}

/* an fp8 value -> f16 bits: exact (every e4m3 / e5m2 value is an f16) */
static unsigned fp8_to_f16(unsigned b, struct half_fmt f)
{
	double v = half_decode(b, f);
	return isnan(v) ? 0x7fffu : half_encode(v, FMT_F16);   /* any NaN: the canonical f16 NaN (H200) */
}

unsigned __oxide_host_cvt_rn_f16x2_e4m3x2(unsigned short x)
{
	return fp8_to_f16(x >> 8, FMT_E4M3) << 16 | fp8_to_f16(x & 0xffu, FMT_E4M3);
}

unsigned __oxide_host_cvt_rn_f16x2_e5m2x2(unsigned short x)
{
	return fp8_to_f16(x >> 8, FMT_E5M2) << 16 | fp8_to_f16(x & 0xffu, FMT_E5M2);
}

/* ---- warp matrix operations (the registry's mma, ldmatrix and stmatrix rows),
 * warp-collective like the shuffles: every lane gives its registers, each
 * computes its own part of the result from all of them, with the PTX
 * ISA's fragment layouts (groupID g = lane / 4, t = lane % 4):
 *   A 16 x 16, row: a0 {A[g][2t], A[g][2t+1]}, a1 the same at row g + 8,
 *     a2, a3 at columns + 8 (the low half of a register is the first)
 *   B 16 x 8, col: b0 {B[2t][g], B[2t+1][g]}, b1 at rows + 8
 *   C, D 16 x 8: c0, c1 = C[g][2t], C[g][2t+1]; c2, c3 at row g + 8
 * The products of two bf16 / f16 values are exact in double; the sum of
 * the 16 products and C is taken in double and rounded to f32 once.  The
 * tensor cores' order and intermediate precision are not specified by the
 * ISA: results may differ from the GPU's in the last bits of f32 (tests
 * state their tolerance; sums of small integers are exact on both). */

static double bf16_value(unsigned h)
{
	uint32_t u = (uint32_t)(h & 0xffffu) << 16;
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static double f16_value(unsigned h)
{
	return __oxide_host_cvt_f32_f16((unsigned short)h);
}

/* every lane's registers r0, r1 (one 64-bit rendezvous), copied out */
static void warp_gather2(unsigned r0, unsigned r1, uint32_t out[32][2])
{
	uint32_t present;
	const uint64_t *v = warp_exchange(0xffffffffu, r0 | (uint64_t)r1 << 32, &present);

	for (unsigned i = 0; i < 32; i++) {
		out[i][0] = (uint32_t)v[i];
		out[i][1] = (uint32_t)(v[i] >> 32);
	}
}

/* the 16-bit element of a fragment register: half h of register r of lane */
static unsigned half_of(uint32_t reg, unsigned h)
{
	return h ? reg >> 16 : reg & 0xffffu;
}

static void mma_m16n8k16(float *d, const unsigned a[4], const unsigned b[2], const float c[4],
                         double (*value)(unsigned))
{
	uint32_t alo[32][2], ahi[32][2], bs[32][2];
	unsigned lane = my_lane(), g = lane / 4, t = lane % 4;

	warp_gather2(a[0], a[1], alo);
	warp_gather2(a[2], a[3], ahi);
	warp_gather2(b[0], b[1], bs);
	for (unsigned i = 0; i < 4; i++) {
		unsigned row = g + (i >= 2 ? 8 : 0), col = 2 * t + (i & 1);
		double sum = c[i];
		for (unsigned k = 0; k < 16; k++) {
			/* A[row][k]: lane 4 (row % 8) + (k % 8) / 2, register
			 * (row >= 8) + 2 (k >= 8), half k % 2 */
			unsigned al = 4 * (row % 8) + (k % 8) / 2, ar = (row >= 8) + 2 * (k >= 8);
			uint32_t areg = ar < 2 ? alo[al][ar] : ahi[al][ar - 2];
			/* B[k][col]: lane 4 col + (k % 8) / 2, register k >= 8,
			 * half k % 2 */
			unsigned bl = 4 * col + (k % 8) / 2;
			sum += value(half_of(areg, k % 2)) * value(half_of(bs[bl][k >= 8], k % 2));
		}
		d[i] = (float)sum;
	}
}

void __oxide_host_mma_m16n8k16_f32_bf16(float *d, unsigned a0, unsigned a1, unsigned a2, unsigned a3,
                                        unsigned b0, unsigned b1, float c0, float c1, float c2, float c3)
{
	const unsigned a[4] = { a0, a1, a2, a3 }, b[2] = { b0, b1 };
	const float c[4] = { c0, c1, c2, c3 };
	mma_m16n8k16(d, a, b, c, bf16_value);
}

void __oxide_host_mma_m16n8k16_f32_f16(float *d, unsigned a0, unsigned a1, unsigned a2, unsigned a3,
                                       unsigned b0, unsigned b1, float c0, float c1, float c2, float c3)
{
	const unsigned a[4] = { a0, a1, a2, a3 }, b[2] = { b0, b1 };
	const float c[4] = { c0, c1, c2, c3 };
	mma_m16n8k16(d, a, b, c, f16_value);
}

/* tf32 (mma.m16n8k8 .tf32): an operand's top 19 bits (sign, exponent, 10
 * mantissa bits).  The emulator ignores the low 13 bits of an operand
 * that cvt.rna.tf32.f32 did not round (truncation); what the tensor cores
 * do with them is implementation-defined (tests/gpu/prims counts the
 * results that differ from the GPU's when they are set). */
static double tf32_value(uint32_t u)
{
	float f;

	u &= 0xffffe000u;
	memcpy(&f, &u, sizeof f);
	return f;
}

/* mma.m16n8k8 .tf32: A 16 x 8 (a0 A[g][t], a1 A[g+8][t], a2, a3 at
 * column t + 4), B 8 x 8 (b0 B[t][g], b1 B[t+4][g]), C and D as m16n8k16;
 * the 8 products (exact in double) and C summed in double, rounded once */
static void mma_m16n8k8_tf32(float *d, const unsigned a[4], const unsigned b[2], const float c[4])
{
	uint32_t alo[32][2], ahi[32][2], bs[32][2];
	unsigned lane = my_lane(), g = lane / 4, t = lane % 4;

	warp_gather2(a[0], a[1], alo);
	warp_gather2(a[2], a[3], ahi);
	warp_gather2(b[0], b[1], bs);
	for (unsigned i = 0; i < 4; i++) {
		unsigned row = g + (i >= 2 ? 8 : 0), col = 2 * t + (i & 1);
		double sum = c[i];
		for (unsigned k = 0; k < 8; k++) {
			/* A[row][k]: lane 4 (row % 8) + k % 4, register (row >= 8) + 2 (k >= 4) */
			unsigned al = 4 * (row % 8) + k % 4, ar = (row >= 8) + 2 * (k >= 4);
			uint32_t areg = ar < 2 ? alo[al][ar] : ahi[al][ar - 2];
			/* B[k][col]: lane 4 col + k % 4, register k >= 4 */
			sum += tf32_value(areg) * tf32_value(bs[4 * col + k % 4][k >= 4]);
		}
		d[i] = (float)sum;
	}
}

void __oxide_host_mma_m16n8k8_f32_tf32(float *d, unsigned a0, unsigned a1, unsigned a2, unsigned a3,
                                       unsigned b0, unsigned b1, float c0, float c1, float c2, float c3)
{
	const unsigned a[4] = { a0, a1, a2, a3 }, b[2] = { b0, b1 };
	const float c[4] = { c0, c1, c2, c3 };
	mma_m16n8k8_tf32(d, a, b, c);
}

/* cvt.rna.tf32.f32: to nearest, ties away (adding half of the 13 low bits'
 * unit carries into the exponent as it should), low 13 bits cleared;
 * infinities and NaNs are only cleared (as the hardware's SASS does:
 * FSETP.GEU |x|, +INF guards the add) */
unsigned __oxide_host_cvt_rna_tf32_f32(float x)
{
	uint32_t u;

	memcpy(&u, &x, sizeof u);
	if ((u & 0x7f800000u) != 0x7f800000u)
		u += 0x1000u;
	return u & 0xffffe000u;
}

/* byte k of a register of 8-bit elements, as a signed or unsigned value */
static int64_t i8_of(uint32_t reg, unsigned k, int is_signed)
{
	unsigned v = (reg >> (8 * k)) & 0xffu;

	return is_signed ? (int64_t)(int8_t)v : (int64_t)v;
}

/* mma.m16n8k32 .s8 / .u8 -> .s32: A 16 x 32 (a0 A[g][4t..4t+4], a1 at row
 * g + 8, a2, a3 at columns + 16; the lowest-indexed element in the low
 * byte), B 32 x 8 (b0 B[4t..4t+4][g], b1 at rows + 16), C and D as
 * m16n8k16.  Exact: the sum in 64 bits, then wrapped to 32 (the
 * hardware's s32 adds) or, with .satfinite, clamped. */
static void mma_m16n8k32_i8(int *d, const unsigned a[4], const unsigned b[2], const int c[4], int is_signed,
                            int sat)
{
	uint32_t alo[32][2], ahi[32][2], bs[32][2];
	unsigned lane = my_lane(), g = lane / 4, t = lane % 4;

	warp_gather2(a[0], a[1], alo);
	warp_gather2(a[2], a[3], ahi);
	warp_gather2(b[0], b[1], bs);
	for (unsigned i = 0; i < 4; i++) {
		unsigned row = g + (i >= 2 ? 8 : 0), col = 2 * t + (i & 1);
		int64_t sum = c[i];
		for (unsigned k = 0; k < 32; k++) {
			unsigned kk = k % 16, hi = k >= 16;
			/* A[row][k]: lane 4 (row % 8) + kk / 4, register (row >= 8) + 2 hi, byte kk % 4 */
			unsigned al = 4 * (row % 8) + kk / 4, ar = (row >= 8) + 2 * hi;
			uint32_t areg = ar < 2 ? alo[al][ar] : ahi[al][ar - 2];
			/* B[k][col]: lane 4 col + kk / 4, register hi, byte kk % 4 */
			sum += i8_of(areg, kk % 4, is_signed) * i8_of(bs[4 * col + kk / 4][hi], kk % 4, is_signed);
		}
		if (sat)
			d[i] = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : (int)sum;
		else
			d[i] = (int)(uint32_t)(uint64_t)sum;
	}
}

#define MMA_I8_HOST(name, is_signed, sat) \
	void __oxide_host_##name(int *d, unsigned a0, unsigned a1, unsigned a2, unsigned a3, unsigned b0, \
	                         unsigned b1, int c0, int c1, int c2, int c3) \
	{ \
		const unsigned a[4] = { a0, a1, a2, a3 }, b[2] = { b0, b1 }; \
		const int c[4] = { c0, c1, c2, c3 }; \
		mma_m16n8k32_i8(d, a, b, c, is_signed, sat); \
	}
MMA_I8_HOST(mma_m16n8k32_s32_s8, 1, 0)
MMA_I8_HOST(mma_m16n8k32_s32_u8, 0, 0)
MMA_I8_HOST(mma_m16n8k32_s32_s8_satfinite, 1, 1)
MMA_I8_HOST(mma_m16n8k32_s32_u8_satfinite, 0, 1)
#undef MMA_I8_HOST

static uint16_t load_u16(uint64_t addr)
{
	uint16_t v;
	memcpy(&v, (const void *)(uintptr_t)addr, sizeof v);
	return v;
}

/* the row address of a lane of ldmatrix / stmatrix that gives one
 * (lane < 8 n) is 16-byte aligned */
static void matrix_row_check(const char *op, const void *p, unsigned n)
{
	if (my_lane() < 8 * n && (uintptr_t)p % 16 != 0)
		fail_launch("%s: lane %u's row address %p is not 16-byte aligned (a misaligned address on a GPU)", op,
		            my_lane(), p);
}

/* ldmatrix: every lane's row address; lane l receives, of each of the n
 * matrices, row l / 4 at columns 2 (l % 4), + 1 (trans: column l / 4 at
 * rows 2 (l % 4), + 1) */
static void ldmatrix(unsigned *d, void *p, unsigned n, int trans)
{
	uint32_t present;
	uint64_t rows[32];
	const uint64_t *v;
	unsigned lane = my_lane();

	matrix_row_check("ldmatrix", p, n);
	v = warp_exchange(0xffffffffu, (uint64_t)(uintptr_t)p, &present);
	memcpy(rows, v, sizeof rows);
	for (unsigned j = 0; j < n; j++) {
		const uint64_t *m = rows + 8 * j;
		uint16_t lo, hi;
		if (trans) {
			lo = load_u16(m[2 * (lane % 4)] + 2 * (lane / 4));
			hi = load_u16(m[2 * (lane % 4) + 1] + 2 * (lane / 4));
		} else {
			lo = load_u16(m[lane / 4] + 4 * (lane % 4));
			hi = load_u16(m[lane / 4] + 4 * (lane % 4) + 2);
		}
		d[j] = lo | (uint32_t)hi << 16;
	}
}

void __oxide_host_ldmatrix_x1(unsigned *d, void *p) { ldmatrix(d, p, 1, 0); }
void __oxide_host_ldmatrix_x2(unsigned *d, void *p) { ldmatrix(d, p, 2, 0); }
void __oxide_host_ldmatrix_x4(unsigned *d, void *p) { ldmatrix(d, p, 4, 0); }
void __oxide_host_ldmatrix_x1_trans(unsigned *d, void *p) { ldmatrix(d, p, 1, 1); }
void __oxide_host_ldmatrix_x2_trans(unsigned *d, void *p) { ldmatrix(d, p, 2, 1); }
void __oxide_host_ldmatrix_x4_trans(unsigned *d, void *p) { ldmatrix(d, p, 4, 1); }

static void store_u16(uint64_t addr, uint16_t v)
{
	memcpy((void *)(uintptr_t)addr, &v, sizeof v);
}

/* stmatrix, ldmatrix's inverse: every lane's row address and registers;
 * lane l < 8 n stores row l % 8 of matrix l / 8, element c of which is,
 * in the registers j = l / 8, half c % 2 of lane 4 (l % 8) + c / 2 (trans:
 * the transposed matrix's, half (l % 8) % 2 of lane 4 c + (l % 8) / 2) */
static void stmatrix(void *p, const unsigned *r, unsigned n, int trans)
{
	uint32_t present, lo[32][2], hi[32][2];
	uint64_t rows[32];
	const uint64_t *v;
	unsigned lane = my_lane(), j = lane / 8, row = lane % 8;

	matrix_row_check("stmatrix", p, n);
	v = warp_exchange(0xffffffffu, (uint64_t)(uintptr_t)p, &present);
	memcpy(rows, v, sizeof rows);
	warp_gather2(r[0], n > 1 ? r[1] : 0, lo);
	if (n == 4)
		warp_gather2(r[2], r[3], hi);
	if (j >= n)
		return;
	for (unsigned c = 0; c < 8; c++) {
		unsigned src = trans ? 4 * c + row / 2 : 4 * row + c / 2, h = trans ? row % 2 : c % 2;
		uint32_t reg = j < 2 ? lo[src][j] : hi[src][j - 2];
		store_u16(rows[lane] + 2 * c, (uint16_t)half_of(reg, h));
	}
}

void __oxide_host_stmatrix_x1(void *p, unsigned r0) { stmatrix(p, &r0, 1, 0); }
void __oxide_host_stmatrix_x1_trans(void *p, unsigned r0) { stmatrix(p, &r0, 1, 1); }

void __oxide_host_stmatrix_x2(void *p, unsigned r0, unsigned r1)
{
	const unsigned r[2] = { r0, r1 };
	stmatrix(p, r, 2, 0);
}

void __oxide_host_stmatrix_x2_trans(void *p, unsigned r0, unsigned r1)
{
	const unsigned r[2] = { r0, r1 };
	stmatrix(p, r, 2, 1);
}

void __oxide_host_stmatrix_x4(void *p, unsigned r0, unsigned r1, unsigned r2, unsigned r3)
{
	const unsigned r[4] = { r0, r1, r2, r3 };
	stmatrix(p, r, 4, 0);
}

void __oxide_host_stmatrix_x4_trans(void *p, unsigned r0, unsigned r1, unsigned r2, unsigned r3)
{
	const unsigned r[4] = { r0, r1, r2, r3 };
	stmatrix(p, r, 4, 1);
}

/* ---- asynchronous copies (the registry's cp_async rows): each thread's
 * copies wait in its queue and land when a cp.async.wait_group waits for
 * their group, so a kernel that reads a tile before waiting for it reads
 * what was there before, as it may on the GPU. ---- */

static void async_complete(Fiber *f, unsigned i)
{
	memcpy(f->acp[i].dst, f->acp[i].src, f->acp[i].n);
	memmove(&f->acp[i], &f->acp[i + 1], (f->nacp - i - 1) * sizeof f->acp[0]);
	f->nacp--;
}

static void cp_async(void *dst, const void *src, unsigned n)
{
	Fiber *f = running != NULL ? running->cur : NULL;

	if (((uintptr_t)dst | (uintptr_t)src) % n != 0)
		fail_launch("cp.async of %u bytes from %p to %p: an address is not %u-byte aligned "
		            "(a misaligned address on a GPU)", n, src, dst, n);
	if (f == NULL) {              /* a kernel called directly: one thread */
		memcpy(dst, src, n);
		return;
	}
	if (f->nacp == ASYNC_COPIES)
		async_complete(f, 0);
	f->acp[f->nacp++] = (AsyncCopy){dst, src, n, f->committed};
}

void __oxide_host_cp_async_ca_4(void *dst, void *src) { cp_async(dst, src, 4); }
void __oxide_host_cp_async_ca_8(void *dst, void *src) { cp_async(dst, src, 8); }
void __oxide_host_cp_async_ca_16(void *dst, void *src) { cp_async(dst, src, 16); }
void __oxide_host_cp_async_cg_16(void *dst, void *src) { cp_async(dst, src, 16); }

void __oxide_host_cp_async_commit_group(void)
{
	if (running != NULL)
		running->cur->committed++;
}

/* all but the n most recent committed groups complete */
static void wait_group(unsigned n)
{
	Fiber *f = running != NULL ? running->cur : NULL;

	if (f == NULL || f->committed <= n)
		return;
	for (unsigned i = 0; i < f->nacp;)
		if (f->acp[i].group < f->committed - n)
			async_complete(f, i);
		else
			i++;
}

void __oxide_host_cp_async_wait_group_0(void) { wait_group(0); }
void __oxide_host_cp_async_wait_group_1(void) { wait_group(1); }
void __oxide_host_cp_async_wait_group_2(void) { wait_group(2); }
void __oxide_host_cp_async_wait_group_3(void) { wait_group(3); }
void __oxide_host_cp_async_wait_group_4(void) { wait_group(4); }
void __oxide_host_cp_async_wait_group_5(void) { wait_group(5); }
void __oxide_host_cp_async_wait_group_6(void) { wait_group(6); }
void __oxide_host_cp_async_wait_group_7(void) { wait_group(7); }

void __oxide_host_cp_async_wait_all(void)
{
	Fiber *f = running != NULL ? running->cur : NULL;

	while (f != NULL && f->nacp > 0)
		async_complete(f, 0);
}

/* ---- Hopper (the registry's Hopper rows): shared addresses, mbarriers,
 * bulk and tensor (TMA) copies, elect.sync, setmaxnreg, wgmma.
 *
 * Shared addresses: __oxide_host_smem_addr gives a pointer into the
 * launch's dynamic shared memory its 32-bit address in the emulated shared
 * window (SMEM_BASE + its offset); kernels build wgmma matrix descriptors
 * from it, and the emulated wgmma maps the descriptors' addresses back the
 * same way. Static shared arrays (the block's static shared memory,
 * after the dynamic) are outside the window: their shared address is not
 * emulated, and asking for it fails the launch (never a wrong address).
 *
 * mbarriers: the 8 bytes hold the emulator's own encoding of the state
 * (opaque on the GPU too; see Mbar). A phase completes when its pending
 * arrivals reach 0 and its transaction count is 0: the parity flips and
 * the pending count is the init count again. try_wait.parity says whether
 * the phase of that parity completed (the current parity differs); when
 * not, the thread yields to the scheduler, which resumes spinning threads
 * when nothing else can run; a block whose threads spin with no mbarrier
 * changing for SPIN_ROUNDS rounds would hang on a GPU, and its launch
 * fails, saying so. What the GPU leaves undefined (use before init, more
 * arrivals than the count, counts beyond 2^20 - 1, misaligned copies)
 * fails the launch too.
 *
 * Copies (cp.async.bulk, cp.async.bulk.tensor) land when issued and
 * complete their bytes on the mbarrier at once: on the GPU the mbarrier
 * protocol is what orders them, and landing early is one order it allows.
 * TMA fills the box row-major (box[0] elements a row), zeros outside the
 * tensor, and swizzles like the GPU: a function of the shared address
 * bits (see swizzle), which the 1024-byte aligned dynamic shared memory
 * gives host addresses too. TMA stores and bulk_copy_s2g read shared
 * memory and write global memory when issued (leaving the tensor alone
 * outside its bounds), so their bulk async-groups have nothing pending.
 *
 * wgmma: each thread computes its own accumulator elements (the PTX ISA's
 * fragment of m64nNk16 with f32 D, see wgmma) from the shared memory its
 * descriptors locate, when it issues the operation: the tensor cores read
 * their operands asynchronously until wgmma.wait_group, and a kernel may
 * not change them meanwhile, so reading at the issue is one of the
 * orders the GPU allows. wgmma.wait_group is the warpgroup's rendezvous:
 * on the GPU a thread that passed it knows the whole warpgroup's
 * operation completed (and may, say, release the stage its operands were
 * in), so here no thread passes until every thread of its warpgroup
 * computed its part. ---- */

/* The offset of p in the launch's dynamic shared memory, or -1 outside it
 * (its end included: an address one past the last byte). */
static long long dyn_offset(const void *p)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)dyn_shared.buf;

	if (dyn_shared.buf == NULL || a < b || a - b > dyn_shared.size)
		return -1;
	return (long long)(a - b);
}

unsigned __oxide_host_smem_addr(void *p)
{
	long long off = dyn_offset(p);

	if (off < 0)
		fail_launch("smem_addr of memory outside the dynamic shared memory (%p): not emulated (static "
		            "shared arrays are outside the emulated shared window: use dynamic shared memory)", p);
	return SMEM_BASE + (unsigned)off;
}

/* The host address of `bytes` bytes at shared address a (a descriptor's),
 * which must lie in the launch's dynamic shared memory. */
static unsigned char *smem_host(uint64_t a, unsigned bytes, const char *op)
{
	if (a < SMEM_BASE || a - SMEM_BASE + bytes > dyn_shared.size)
		fail_launch("%s: shared address %#llx is outside the launch's %zu bytes of dynamic shared memory "
		            "(shared addresses %#x and up in the emulator)", op, (unsigned long long)a,
		            dyn_shared.size, (unsigned)SMEM_BASE);
	return dyn_shared.buf + (a - SMEM_BASE);
}

/* An mbarrier's state, as its 8 bytes hold it here: bits 0..19 the
 * pending arrivals, 20..39 the init count, 40..61 the transaction count
 * (two's complement), 62 the phase parity, 63 set from init to inval. */
typedef struct {
	unsigned pending, count, parity;
	int tx;
} Mbar;

enum { MBAR_MAX = (1 << 20) - 1 };   /* PTX's limit of counts and tx-counts */

static uint64_t mbar_word(const void *bar)
{
	uint64_t w;

	memcpy(&w, bar, sizeof w);
	return w;
}

static Mbar mbar_load(const void *bar, const char *op)
{
	uint64_t w;
	Mbar m;

	if ((uintptr_t)bar % 8 != 0)
		fail_launch("%s(%p): an mbarrier is 8-byte aligned (undefined on a GPU)", op, bar);
	w = mbar_word(bar);
	if (!(w >> 63))
		fail_launch("%s on an mbarrier that mbarrier_init did not initialize (or mbarrier_inval "
		            "invalidated): undefined on a GPU", op);
	m.pending = w & 0xfffff;
	m.count = w >> 20 & 0xfffff;
	m.tx = (int)(w >> 40 & 0x3fffff) - (w >> 61 & 1 ? 0x400000 : 0);
	m.parity = w >> 62 & 1;
	return m;
}

static void mbar_store(void *bar, Mbar m)
{
	uint64_t w = (uint64_t)m.pending | (uint64_t)m.count << 20 | ((uint64_t)(uint32_t)m.tx & 0x3fffff) << 40 |
	             (uint64_t)m.parity << 62 | 1ull << 63;

	memcpy(bar, &w, sizeof w);
	if (running != NULL)
		running->mbar_events++;
}

/* Stores m, completing the phase when every arrival and every
 * transaction byte is in. */
static void mbar_update(void *bar, Mbar m)
{
	if (m.pending == 0 && m.tx == 0) {
		m.parity ^= 1;
		m.pending = m.count;
	}
	mbar_store(bar, m);
}

/* What a hang message says of an mbarrier. */
static void mbar_show(char *buf, size_t len, const void *bar)
{
	uint64_t w = mbar_word(bar);
	long long off = dyn_offset(bar);
	char where[48];

	if (off >= 0)
		snprintf(where, sizeof where, "shared address %#llx", (unsigned long long)(SMEM_BASE + off));
	else
		snprintf(where, sizeof where, "%p", bar);
	if (!(w >> 63)) {
		snprintf(buf, len, "the mbarrier at %s (invalid)", where);
		return;
	}
	Mbar m = mbar_load(bar, "");
	snprintf(buf, len, "the mbarrier at %s (current parity %u, %u of %u arrivals pending, %d transaction "
	         "bytes pending)", where, m.parity, m.pending, m.count, m.tx);
}

void __oxide_host_mbarrier_init(void *bar, unsigned count)
{
	Mbar m = {count, count, 0, 0};

	if ((uintptr_t)bar % 8 != 0)
		fail_launch("mbarrier_init(%p): an mbarrier is 8-byte aligned (undefined on a GPU)", bar);
	if (count == 0 || count > MBAR_MAX)
		fail_launch("mbarrier_init(count %u): the count is 1 .. 2^20 - 1 (undefined on a GPU)", count);
	mbar_store(bar, m);
}

void __oxide_host_mbarrier_inval(void *bar)
{
	(void)mbar_load(bar, "mbarrier_inval");
	memset(bar, 0, 8);
	if (running != NULL)
		running->mbar_events++;
}

/* expect-tx of tx bytes, then arrive-on */
static void mbar_arrive(void *bar, unsigned tx, const char *op)
{
	Mbar m = mbar_load(bar, op);

	if ((long long)m.tx + tx > MBAR_MAX)
		fail_launch("%s: %d + %u transaction bytes exceed 2^20 - 1 (undefined on a GPU)", op, m.tx, tx);
	if (m.pending == 0)
		fail_launch("%s: every arrival of the current phase is in already (it waits for %d transaction "
		            "bytes): undefined on a GPU", op, m.tx);
	m.tx += (int)tx;
	m.pending--;
	mbar_update(bar, m);
}

void __oxide_host_mbarrier_arrive(void *bar) { mbar_arrive(bar, 0, "mbarrier_arrive"); }
void __oxide_host_mbarrier_arrive_expect_tx(void *bar, unsigned bytes) { mbar_arrive(bar, bytes, "mbarrier_arrive_expect_tx"); }

/* complete-tx: an asynchronous copy's bytes are in */
static void mbar_complete_tx(void *bar, unsigned bytes, const char *op)
{
	Mbar m = mbar_load(bar, op);

	if ((long long)m.tx - bytes < -MBAR_MAX)
		fail_launch("%s: %d - %u transaction bytes go below -(2^20 - 1) (undefined on a GPU)", op, m.tx, bytes);
	m.tx -= (int)bytes;
	mbar_update(bar, m);
}

static int mbar_phase_done(const void *bar, unsigned parity)
{
	return mbar_load(bar, "mbarrier_try_wait_parity").parity != (parity & 1);
}

/* 1 when the phase of this parity completed; else the thread spins: it
 * yields, and says 0 unless the phase completed meanwhile. */
unsigned __oxide_host_mbarrier_try_wait_parity(void *bar, unsigned parity)
{
	Launch *l = running;
	Fiber *f;

	if (mbar_phase_done(bar, parity))
		return 1;
	if (l == NULL)
		fail_launch("mbarrier_try_wait_parity: one thread waits for a phase that nothing else can complete");
	f = l->cur;
	f->spin_bar = bar;
	f->spin_parity = parity;
	l->spin[(l->spin_at + l->nspin) % l->nthreads] = f;
	l->nspin++;
	to_scheduler(l, f, 0);
	return mbar_phase_done(bar, parity);
}

/* The emulator runs one thread at a time, and an mbarrier's init is
 * visible to the next thread that runs; the async proxy (copies, wgmma)
 * reads memory when it is issued, after the thread's earlier stores. */
void __oxide_host_fence_proxy_async_shared(void) {}
void __oxide_host_fence_mbarrier_init(void) {}

void __oxide_host_bulk_copy_g2s(void *dst, void *src, unsigned bytes, void *bar)
{
	if (bytes % 16 != 0 || (uintptr_t)dst % 16 != 0 || (uintptr_t)src % 16 != 0)
		fail_launch("bulk_copy_g2s(%p, %p, %u bytes): the size and both addresses are multiples of 16 "
		            "(undefined on a GPU)", dst, src, bytes);
	memcpy(dst, src, bytes);
	mbar_complete_tx(bar, bytes, "bulk_copy_g2s");
}

/* The shared-memory swizzle of TMA and wgmma (CUTLASS's Swizzle<b,4,3>):
 * the 16-byte chunk bits 4 .. 4+b of the address XOR its bits 7 .. 7+b,
 * b = 3 for the 128-byte span, 2 for 64, 1 for 32, 0 without. Within a
 * 1024-byte aligned block of 128-byte rows (128B): chunk c of row r goes
 * to chunk c ^ (r % 8). */
static uint64_t swizzle(uint64_t a, unsigned span)
{
	unsigned b = span == 128 ? 3 : span == 64 ? 2 : span == 32 ? 1 : 0;

	return a ^ (a >> 7 & ((1u << b) - 1)) << 4;
}

static EmuTensorMap tensor_map(const void *map, const char *op)
{
	EmuTensorMap m;

	memcpy(&m, map, sizeof m);
	if (m.magic != TMAP_MAGIC)
		fail_launch("%s: %p holds no tensor map of ox_tensor_map_encode (pass the OxTensorMap as a by-value "
		            "TensorMap kernel parameter, or copy it to device memory and pass that address)", op, map);
	return m;
}

/* A TMA copy's tensor map, checked against the instruction: the rank is
 * the instruction's dimension, the shared box 128-byte aligned and inside
 * shared memory, and the box's rows as wide as the swizzle span (the only
 * swizzled boxes emulated). */
static OxTensorMapDesc tma_desc(const void *map, unsigned dim, const void *smem, const char *op)
{
	EmuTensorMap m = tensor_map(map, op);
	const OxTensorMapDesc *d = &m.desc;
	unsigned row = d->box[0] * d->elem_bytes;
	uint64_t bytes = d->elem_bytes;
	long long off = dyn_offset(smem);

	if (d->rank != dim)
		fail_launch("%s with a tensor map of rank %u (a %u-D copy needs rank %u)", op, d->rank, dim, dim);
	for (unsigned i = 0; i < d->rank; i++)
		bytes *= d->box[i];
	if (bytes > SMEM_MAX || (off >= 0 && (uint64_t)off + bytes > dyn_shared.size))
		fail_launch("%s: the box of %llu bytes at %p does not fit in shared memory (the launch has %zu bytes "
		            "of dynamic shared memory; undefined on a GPU)", op, (unsigned long long)bytes, smem,
		            dyn_shared.size);
	if ((uintptr_t)smem % 128 != 0)
		fail_launch("%s: the shared box at %p is 128-byte aligned (undefined on a GPU)", op, smem);
	if (d->swizzle != 0 && row != d->swizzle)
		fail_launch("%s: box rows of %u bytes with the %u-byte swizzle: not emulated (only rows as wide as "
		            "the swizzle span)", op, row, d->swizzle);
	return m.desc;
}

/* The byte offset in the tensor of the element at coordinates g, or -1
 * when it lies outside the tensor. */
static long long tma_offset(const OxTensorMapDesc *d, const long long *g)
{
	unsigned long long off = 0;

	for (unsigned i = 0; i < d->rank; i++) {
		if (g[i] < 0 || (uint64_t)g[i] >= d->dims[i])
			return -1;
		off += (uint64_t)g[i] * (i == 0 ? d->elem_bytes : d->strides[i - 1]);
	}
	return (long long)off;
}

/* Moves the box at coordinates c (c[0] innermost) between the tensor and
 * shared memory at smem, where the box is row-major (box[0] elements a
 * row, then box[1] rows a plane, ...) and swizzled like the GPU's (see
 * swizzle). Loads zero the elements outside the tensor; stores leave the
 * tensor there alone. Returns the box's bytes. */
static unsigned tma_box(const OxTensorMapDesc *d, unsigned char *smem, const int *c, int store)
{
	unsigned e = d->elem_bytes, n = 1;   /* tma_desc checked n * e <= SMEM_MAX */
	unsigned char *global = (unsigned char *)(uintptr_t)d->global;

	for (unsigned i = 0; i < d->rank; i++)
		n *= d->box[i];
	for (unsigned k = 0; k < n; k++) {
		long long g[5];
		unsigned rest = k;
		for (unsigned i = 0; i < d->rank; i++) {
			g[i] = (long long)c[i] + rest % d->box[i];
			rest /= d->box[i];
		}
		long long off = tma_offset(d, g);
		unsigned char *s = (unsigned char *)(uintptr_t)swizzle((uintptr_t)(smem + (size_t)k * e), d->swizzle);
		if (store && off >= 0)
			memcpy(global + off, s, e);
		else if (!store && off >= 0)
			memcpy(s, global + off, e);
		else if (!store)
			memset(s, 0, e);
	}
	return n * e;
}

static void tma_load(void *dst, const void *map, unsigned dim, const int *c, void *bar, const char *op)
{
	OxTensorMapDesc d = tma_desc(map, dim, dst, op);

	mbar_complete_tx(bar, tma_box(&d, dst, c, 0), op);
}

/* The multicast loads write the box into every CTA of the cluster that
 * cta_mask names (bit r: rank r), at dst's offset in each one's shared
 * memory, and complete the transaction bytes on each one's mbarrier at
 * bar's offset (mapa's addresses). */
static void tma_load_multicast(void *dst, const void *map, unsigned dim, const int *c, void *bar,
                               unsigned short cta_mask, const char *op)
{
	unsigned n = running != NULL ? running->cluster->n : 1;
	OxTensorMapDesc d = tma_desc(map, dim, dst, op);

	if (cta_mask == 0 || cta_mask >> n != 0)
		fail_launch("%s: cta_mask %#x names %s (a cluster of %u blocks; undefined on a GPU)", op, cta_mask,
		            cta_mask == 0 ? "no CTA" : "ranks beyond the cluster", n);
	for (unsigned r = 0; r < n; r++)
		if (cta_mask >> r & 1) {
			unsigned char *to = n > 1 ? __oxide_host_mapa(dst, r) : dst;
			void *their_bar = n > 1 ? __oxide_host_mapa(bar, r) : bar;
			mbar_complete_tx(their_bar, tma_box(&d, to, c, 0), op);
		}
}

/* Stores (and bulk_copy_s2g) read shared memory and write the tensor when
 * issued: the GPU's bulk async-group lets them do so any time before
 * bulk_wait_group_read (the source read) and bulk_wait_group (the writes),
 * so both waits have nothing left to wait for. */
static void tma_store(const void *map, unsigned dim, const int *c, void *src, const char *op)
{
	OxTensorMapDesc d = tma_desc(map, dim, src, op);

	/* measured: the H200 stops a store whose box starts below 0 in any
	 * dimension with an illegal instruction (loads take such boxes) */
	for (unsigned i = 0; i < dim; i++)
		if (c[i] < 0)
			fail_launch("%s: coordinate %u is %d: a store's box must not start below 0 (the H200 faults: "
			            "illegal instruction)", op, i, c[i]);
	(void)tma_box(&d, src, c, 1);
}

void __oxide_host_tma_load_1d(void *dst, void *map, int x, void *bar)
{
	int c[] = {x};
	tma_load(dst, map, 1, c, bar, "tma_load_1d");
}

void __oxide_host_tma_load_2d(void *dst, void *map, int x, int y, void *bar)
{
	int c[] = {x, y};
	tma_load(dst, map, 2, c, bar, "tma_load_2d");
}

void __oxide_host_tma_load_3d(void *dst, void *map, int x, int y, int z, void *bar)
{
	int c[] = {x, y, z};
	tma_load(dst, map, 3, c, bar, "tma_load_3d");
}

void __oxide_host_tma_load_4d(void *dst, void *map, int x, int y, int z, int w, void *bar)
{
	int c[] = {x, y, z, w};
	tma_load(dst, map, 4, c, bar, "tma_load_4d");
}

void __oxide_host_tma_load_5d(void *dst, void *map, int x, int y, int z, int w, int v, void *bar)
{
	int c[] = {x, y, z, w, v};
	tma_load(dst, map, 5, c, bar, "tma_load_5d");
}

void __oxide_host_tma_load_multicast_1d(void *dst, void *map, int x, void *bar, unsigned short cta_mask)
{
	int c[] = {x};
	tma_load_multicast(dst, map, 1, c, bar, cta_mask, "tma_load_multicast_1d");
}

void __oxide_host_tma_load_multicast_2d(void *dst, void *map, int x, int y, void *bar, unsigned short cta_mask)
{
	int c[] = {x, y};
	tma_load_multicast(dst, map, 2, c, bar, cta_mask, "tma_load_multicast_2d");
}

void __oxide_host_tma_load_multicast_3d(void *dst, void *map, int x, int y, int z, void *bar,
                                        unsigned short cta_mask)
{
	int c[] = {x, y, z};
	tma_load_multicast(dst, map, 3, c, bar, cta_mask, "tma_load_multicast_3d");
}

void __oxide_host_tma_load_multicast_4d(void *dst, void *map, int x, int y, int z, int w, void *bar,
                                        unsigned short cta_mask)
{
	int c[] = {x, y, z, w};
	tma_load_multicast(dst, map, 4, c, bar, cta_mask, "tma_load_multicast_4d");
}

void __oxide_host_tma_load_multicast_5d(void *dst, void *map, int x, int y, int z, int w, int v, void *bar,
                                        unsigned short cta_mask)
{
	int c[] = {x, y, z, w, v};
	tma_load_multicast(dst, map, 5, c, bar, cta_mask, "tma_load_multicast_5d");
}

void __oxide_host_tma_store_1d(void *map, int x, void *src)
{
	int c[] = {x};
	tma_store(map, 1, c, src, "tma_store_1d");
}

void __oxide_host_tma_store_2d(void *map, int x, int y, void *src)
{
	int c[] = {x, y};
	tma_store(map, 2, c, src, "tma_store_2d");
}

void __oxide_host_tma_store_3d(void *map, int x, int y, int z, void *src)
{
	int c[] = {x, y, z};
	tma_store(map, 3, c, src, "tma_store_3d");
}

void __oxide_host_tma_store_4d(void *map, int x, int y, int z, int w, void *src)
{
	int c[] = {x, y, z, w};
	tma_store(map, 4, c, src, "tma_store_4d");
}

void __oxide_host_tma_store_5d(void *map, int x, int y, int z, int w, int v, void *src)
{
	int c[] = {x, y, z, w, v};
	tma_store(map, 5, c, src, "tma_store_5d");
}

void __oxide_host_bulk_copy_s2g(void *dst, void *src, unsigned bytes)
{
	if (bytes % 16 != 0 || (uintptr_t)dst % 16 != 0 || (uintptr_t)src % 16 != 0)
		fail_launch("bulk_copy_s2g(%p, %p, %u bytes): the size and both addresses are multiples of 16 "
		            "(undefined on a GPU)", dst, src, bytes);
	memcpy(dst, src, bytes);
}

/* Nothing is pending: see tma_store. */
void __oxide_host_bulk_commit_group(void) {}
#define BULK_WAIT(n) \
	void __oxide_host_bulk_wait_group_##n(void) {} \
	void __oxide_host_bulk_wait_group_read_##n(void) {}
BULK_WAIT(0) BULK_WAIT(1) BULK_WAIT(2) BULK_WAIT(3)
BULK_WAIT(4) BULK_WAIT(5) BULK_WAIT(6) BULK_WAIT(7)
#undef BULK_WAIT

/* elect.sync: the lowest lane of those that took part */
unsigned __oxide_host_elect_sync(unsigned mask)
{
	uint32_t present;

	(void)warp_exchange(mask, 0, &present);
	return present != 0 && my_lane() == (unsigned)__builtin_ctz(present);
}

/* The register budget of a warpgroup: host code has no registers. */
void __oxide_host_setmaxnreg_inc_232(void) {}
void __oxide_host_setmaxnreg_inc_240(void) {}
void __oxide_host_setmaxnreg_dec_24(void) {}
void __oxide_host_setmaxnreg_dec_40(void) {}

/* Every thread of the warpgroup that has not returned has arrived. */
static int group_complete(const Launch *l, unsigned gi)
{
	const GroupSync *gs = &l->groups[gi];

	if (gs->nwaiting == 0)
		return 0;
	for (unsigned w = 4 * gi; w < 4 * gi + 4 && w < l->nwarps; w++) {
		uint32_t all = warp_lanes(l, w);

		if (((gs->lanes[w % 4] | l->warps[w].done) & all) != all)
			return 0;
	}
	return 1;
}

/* Every waiting fiber but self (the running one, or NULL) becomes ready,
 * in arrival order, and the rendezvous starts over. */
static void group_release(Launch *l, GroupSync *gs, Fiber *self)
{
	for (unsigned i = 0; i < gs->nwaiting; i++)
		if (gs->waiting[i] != self)
			make_ready(l, gs->waiting[i]);
	memset(gs->lanes, 0, sizeof gs->lanes);
	gs->nwaiting = 0;
}

static void group_returned(Launch *l, unsigned gi)
{
	if (group_complete(l, gi))
		group_release(l, &l->groups[gi], NULL);
}

/* The running thread waits until every thread of its warpgroup that has
 * not returned arrived. */
static void warpgroup_sync(void)
{
	Launch *l = running;
	GroupSync *gs;
	Fiber *f;

	if (l == NULL)                /* a kernel called directly: one thread */
		return;
	f = l->cur;
	gs = &l->groups[f->lin / 128];
	gs->lanes[f->lin / 32 % 4] |= 1u << (f->lin % 32);
	gs->waiting[gs->nwaiting++] = f;
	if (group_complete(l, f->lin / 128))
		group_release(l, gs, f);
	else
		to_scheduler(l, f, 0);
}

/* wgmma.fence orders the thread's earlier accesses of the accumulator and
 * of the operands' shared memory before the next wgmma, and commit_group
 * closes a group of them: the emulated wgmma reads both when issued,
 * after everything before it, and is complete when it returns. */
void __oxide_host_wgmma_fence(void) {}
void __oxide_host_wgmma_commit_group(void) {}

/* Every emulated wgmma is complete when issued; what remains of
 * wait_group is that the warpgroup's operations are (see above). */
void __oxide_host_wgmma_wait_group_0(void) { warpgroup_sync(); }
void __oxide_host_wgmma_wait_group_1(void) { warpgroup_sync(); }
void __oxide_host_wgmma_wait_group_2(void) { warpgroup_sync(); }
void __oxide_host_wgmma_wait_group_3(void) { warpgroup_sync(); }

/* A wgmma operand in shared memory, from its matrix descriptor (PTX ISA,
 * "Matrix Descriptor Format"): the start address, the leading and the
 * stride dimension byte offsets (bits 0..13, 16..29, 32..45, each >> 4)
 * and the swizzle mode (bits 62..63: none, 128B, 64B, 32B). */
typedef struct {
	uint64_t start, lbo, sbo;
	unsigned span;                /* of the swizzle, bytes; 0: none */
} MatDesc;

static MatDesc mat_desc(uint64_t desc, const char *op)
{
	static const unsigned spans[4] = {0, 128, 64, 32};
	MatDesc m;

	if ((desc >> 49 & 7) != 0)
		fail_launch("%s: a matrix descriptor with base offset %u: not emulated (operands that start at a "
		            "boundary of the swizzle pattern have 0)", op, (unsigned)(desc >> 49 & 7));
	m.start = (desc & 0x3fff) << 4;
	m.lbo = (desc >> 16 & 0x3fff) << 4;
	m.sbo = (desc >> 32 & 0x3fff) << 4;
	m.span = spans[desc >> 62];
	return m;
}

/* Element (r, k) of a K-major 16-bit operand, 0 <= k < 16 (r: a row of
 * A, or a column of B), in the PTX ISA's canonical layouts:
 *   no swizzle: "core matrices" of 8 rows of 16 bytes (8 elements of K),
 *     rows 16 bytes apart; LBO from one core matrix to the next along K,
 *     SBO from one group of 8 rows to the next;
 *   swizzled (span 32, 64 or 128 bytes): atoms of 8 rows of `span` bytes,
 *     K contiguous from the start address, SBO from one atom to the
 *     next (LBO unused), then the swizzle of the address. */
static double mat_elem(const MatDesc *m, unsigned r, unsigned k, double (*value)(unsigned), const char *op)
{
	uint64_t a;
	uint16_t v;

	if (m->span == 0)
		a = m->start + r / 8 * m->sbo + r % 8 * 16 + k / 8 * m->lbo + k % 8 * 2;
	else
		a = swizzle(m->start + r / 8 * m->sbo + r % 8 * m->span + k * 2, m->span);
	memcpy(&v, smem_host(a, 2, op), sizeof v);
	return value(v);
}

/* wgmma m64nNk16, f32 += T * T (T bf16 or f16, `value` its decoder): the
 * thread's part of D (PTX ISA, "Register fragments for wgmma m64nNk16",
 * f32 accumulator): thread t of the warpgroup, warp w = t / 32, g =
 * (t % 32) / 4, q = t % 4 holds d[i], i < N / 2, at row 16 w + g + 8
 * ((i / 2) % 2), column 8 (i / 4) + 2 q + i % 2.  arow: the thread's two
 * rows of A (16 w + g, + 8), from shared memory or from the warp's
 * registers.  The products are exact in double; the 16 of them and D
 * (when scale_d != 0) are summed in double and rounded to f32 once (the
 * tensor cores' order and precision are not specified: see the mma
 * rows). */
static void wgmma_rows(float *d, unsigned n, double arow[2][16], uint64_t desc_b, unsigned scale_d,
                       double (*value)(unsigned), const char *op)
{
	MatDesc b = mat_desc(desc_b, op);
	unsigned q = (running != NULL ? running->cur->lin : 0) % 4;

	for (unsigned i = 0; i < n / 2; i++) {
		unsigned col = 8 * (i / 4) + 2 * q + i % 2;
		double sum = scale_d != 0 ? d[i] : 0.0;

		for (unsigned k = 0; k < 16; k++)
			sum += arow[i / 2 % 2][k] * mat_elem(&b, col, k, value, op);
		d[i] = (float)sum;
	}
}

/* this thread's warp w and group g of the warpgroup (see wgmma_rows) */
static void wgmma_place(unsigned *w, unsigned *g)
{
	unsigned t = running != NULL ? running->cur->lin % 128 : 0;

	*w = t / 32;
	*g = t % 32 / 4;
}

/* A from shared memory: rows 16 w + g (+ 8) of its descriptor */
static void wgmma_ss(float *d, unsigned n, uint64_t desc_a, uint64_t desc_b, unsigned scale_d,
                     double (*value)(unsigned), const char *op)
{
	MatDesc a = mat_desc(desc_a, op);
	double arow[2][16];
	unsigned w, g;

	wgmma_place(&w, &g);
	for (unsigned h = 0; h < 2; h++)
		for (unsigned k = 0; k < 16; k++)
			arow[h][k] = mat_elem(&a, 16 * w + g + 8 * h, k, value, op);
	wgmma_rows(d, n, arow, desc_b, scale_d, value, op);
}

/* A from registers: the warp's 16 rows are mma.m16n8k16's A fragment
 * (lane 4 g + q: a0 {A[g][2q], A[g][2q+1]}, a1 at row g + 8, a2, a3 at
 * columns + 8), gathered from the warp like mma's */
static void wgmma_rs(float *d, unsigned n, const unsigned a[4], uint64_t desc_b, unsigned scale_d,
                     double (*value)(unsigned), const char *op)
{
	uint32_t alo[32][2], ahi[32][2];
	double arow[2][16];
	unsigned w, g;

	wgmma_place(&w, &g);
	warp_gather2(a[0], a[1], alo);
	warp_gather2(a[2], a[3], ahi);
	for (unsigned h = 0; h < 2; h++)
		for (unsigned k = 0; k < 16; k++) {
			unsigned lane = 4 * g + k % 8 / 2;
			uint32_t reg = k < 8 ? alo[lane][h] : ahi[lane][h];

			arow[h][k] = value(half_of(reg, k % 2));
		}
	wgmma_rows(d, n, arow, desc_b, scale_d, value, op);
}

/* one emulator function per row (prims.def's WGMMA_SHAPES) */
#define WGMMA_HOST_SS(n, nd, t) \
	void __oxide_host_wgmma_m64n##n##k16_f32_##t(float *d, unsigned long long desc_a, unsigned long long desc_b, \
	                                             unsigned scale_d) \
	{ \
		wgmma_ss(d, n, desc_a, desc_b, scale_d, t##_value, "wgmma_m64n" #n "k16_f32_" #t); \
	}
#define WGMMA_HOST_RS(n, nd, t) \
	void __oxide_host_wgmma_m64n##n##k16_f32_##t##_rs(float *d, unsigned a0, unsigned a1, unsigned a2, \
	                                                  unsigned a3, unsigned long long desc_b, unsigned scale_d) \
	{ \
		const unsigned a[4] = { a0, a1, a2, a3 }; \
		wgmma_rs(d, n, a, desc_b, scale_d, t##_value, "wgmma_m64n" #n "k16_f32_" #t "_rs"); \
	}
WGMMA_SHAPES(WGMMA_HOST_SS, bf16)
WGMMA_SHAPES(WGMMA_HOST_SS, f16)
WGMMA_SHAPES(WGMMA_HOST_RS, bf16)
WGMMA_SHAPES(WGMMA_HOST_RS, f16)
#undef WGMMA_HOST_SS
#undef WGMMA_HOST_RS
