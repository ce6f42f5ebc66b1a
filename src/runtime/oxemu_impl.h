/* oxemu_impl.h: what the pieces of the host emulator share (internal to
 * src/runtime/; oxemu.c's opening comment says how the emulator works):
 *   oxemu.c          launches, fibers, the scheduler, special registers,
 *                    bar.sync, traps
 *   oxemu_sync.c     warp operations, named barriers, clusters, grid::sync,
 *                    fences, timers
 *   oxemu_backend.c  modules, memory, events, shared memory, printf, and the
 *                    backend table (oxemu_backend)
 *   oxemu_half.c     half precision and fp8 conversions and arithmetic
 *   oxemu_mma.c      warp matrix operations (mma, ldmatrix, stmatrix), cp.async
 *   oxemu_hopper.c   Hopper: shared addresses, mbarriers, bulk and TMA
 *                    copies, elect.sync, setmaxnreg, wgmma
 * Here: the state of a launch, of its blocks and of the running thread,
 * and the functions one piece calls in another, under the file that
 * defines them. A program links the runtime with its own code, so every
 * name this header makes extern starts with oxemu_. */
#ifndef OXEMU_IMPL_H
#define OXEMU_IMPL_H

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
 * member mask that has not returned arrived (see oxemu.c's opening
 * comment). A lane waits in one group at a time, so there are at most
 * 32. */
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
	unsigned long long spin_wakes;   /* spinners that found their phase done */
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
	/* a cooperative launch (ox_launch_cooperative): the "cluster" is
	 * the whole grid, run together, its blocks clusters of one for the
	 * cluster registers; grid::sync's barrier: phases completed, blocks
	 * arrived in the current one (oxemu_sync.c) */
	int coop;
	unsigned gphase, garrived;
} Cluster;

/* The special registers of the running thread (cdim: blocks per
 * cluster; explicit: %is_explicit_cluster). */
typedef struct {
	OxDim3 tid, ntid, ctaid, nctaid, cdim;
	unsigned explicit_cluster;
} Where;

/* Dynamic shared memory: the launch's shared_bytes, at the start of each
 * block's shared memory (Cluster.shm), 1024-byte aligned like the shared
 * memory window of a GPU, so the swizzles of TMA and wgmma (functions of
 * address bits 4..9) see the same bits in a host address as in the shared
 * address. buf: the running block's. */
typedef struct {
	unsigned char *buf;
	size_t size;
} DynShared;

/* A trap waiting for the next synchronizing call (pending: a STOP_*). */
typedef struct {
	int pending;
	char kernel[128], path[512], why[512];
	OxDim3 block, thread;
} PendingTrap;

/* The emulated shared memory window: dynamic shared memory starts at this
 * 32-bit shared address (a multiple of 1024, nonzero so that a null
 * pointer is no shared address); see __oxide_host_smem_addr. */
enum { SMEM_BASE = 0x400 };
/* the most shared memory a block of sm_90 has: 227 KiB */
enum { SMEM_MAX = 227 * 1024 };

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

/* oxemu.c */
extern size_t oxemu_stack_limit;        /* what the program asked for */
extern _Thread_local Where oxemu_here;
extern DynShared oxemu_dyn_shared;
extern _Thread_local Launch *oxemu_running;
extern PendingTrap oxemu_trap;
void oxemu_to_scheduler(Launch *l, Fiber *f, int dying);
void oxemu_named_reset(NamedBarrier *nb);
int oxemu_check_dims(const OxFunc *f, OxDim3 grid, OxDim3 block);
int oxemu_run_launch(const OxFunc *f, Cluster *c, OxDim3 grid, OxDim3 block,
                     unsigned shared_bytes, size_t stat, void **args);
int oxemu_synchronize(const char *call, const char *what);
_Noreturn void oxemu_stop_launch(int kind);
_Noreturn void oxemu_fail_launch(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* oxemu_sync.c */
uint32_t oxemu_warp_lanes(const Launch *l, unsigned w);
void oxemu_make_ready(Launch *l, Fiber *g);
void oxemu_warp_returned(Launch *l, unsigned lin);
const uint64_t *oxemu_warp_exchange(uint32_t mask, uint64_t v, uint32_t *present);
unsigned oxemu_my_lane(void);
void oxemu_cluster_returned(Launch *l, unsigned lin);
int oxemu_cluster_hang(Cluster *c);
int oxemu_grid_hang(Cluster *c);

/* oxemu_mma.c */
double oxemu_bf16_value(unsigned h);
double oxemu_f16_value(unsigned h);
void oxemu_warp_gather2(unsigned r0, unsigned r1, uint32_t out[32][2]);
unsigned oxemu_half_of(uint32_t reg, unsigned h);

/* oxemu_hopper.c */
void oxemu_mbar_show(char *buf, size_t len, const void *bar);
void oxemu_group_returned(Launch *l, unsigned gi);

#endif
