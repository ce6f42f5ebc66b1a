/* oxemu_sync.c: what the threads of the host emulator do together:
 * warp operations (shuffle, vote, match, redux, bar.warp.sync), bar.red,
 * named barriers, and thread-block clusters (their special registers,
 * barrier.cluster, mapa), grid::sync() of cooperative launches, then
 * fences and timers. The rendezvous scheme
 * is in oxemu.c's opening comment; oxemu_impl.h has the shared state. */
#include "oxemu_impl.h"

/* ------------------------------------ warp operations, sync, timers */

/* The lanes of warp w that exist (the last warp of a block may be
 * partial). */
uint32_t oxemu_warp_lanes(const Launch *l, unsigned w)
{
	unsigned n = l->nthreads - w * 32;

	return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

/* A fiber the scheduler resumes before starting new threads. */
void oxemu_make_ready(Launch *l, Fiber *g)
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
			oxemu_make_ready(l, g);
	}
	wp->group[gi] = wp->group[--wp->ngroup];
}

static int warp_complete(const Warp *wp, const WarpGroup *g)
{
	return g->arrived != 0 && ((g->arrived | wp->done) & g->need) == g->need;
}

static int named_warp_arrived(Launch *l, NamedBarrier *nb, unsigned w,
                              Fiber *self);

/* A thread returned: its lane no longer holds a warp operation up, nor
 * its warp's arrival at a named barrier. */
void oxemu_warp_returned(Launch *l, unsigned lin)
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
	oxemu_group_returned(l, lin / 128);
}

/* The rendezvous: returns every lane's operand (indexed by lane) and, in
 * *present, the lanes that took part. */
const uint64_t *oxemu_warp_exchange(uint32_t mask, uint64_t v, uint32_t *present)
{
	static _Thread_local uint64_t lone_val[32];
	Launch *l = oxemu_running;
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
	g->need |= (mask | 1u << lane) & oxemu_warp_lanes(l, f->lin / 32);
	if (warp_complete(wp, g))
		warp_release(l, wp, gi, f);
	else
		oxemu_to_scheduler(l, f, 0);
	*present = f->wpresent;
	return f->wv;
}

unsigned oxemu_my_lane(void)
{
	Launch *l = oxemu_running;

	return l != NULL ? l->cur->lin % 32 : 0;
}

unsigned __oxide_host_laneid(void) { return oxemu_my_lane(); }
unsigned __oxide_host_warpid(void) { return oxemu_running != NULL ? oxemu_running->cur->lin / 32 : 0; }
unsigned __oxide_host_smid(void) { return 0; }
unsigned __oxide_host_lanemask_eq(void) { return 1u << oxemu_my_lane(); }
unsigned __oxide_host_lanemask_lt(void) { return (1u << oxemu_my_lane()) - 1; }
unsigned __oxide_host_lanemask_le(void) { return (2u << oxemu_my_lane()) - 1; }   /* lane 31: 2^32 - 1 */
unsigned __oxide_host_lanemask_gt(void) { return ~((2u << oxemu_my_lane()) - 1); }
unsigned __oxide_host_lanemask_ge(void) { return ~((1u << oxemu_my_lane()) - 1); }

unsigned __oxide_host_activemask(void)
{
	Launch *l = oxemu_running;
	unsigned w;

	if (l == NULL)
		return 1;
	/* The lanes of the warp: lanes run one after another here, so
	 * "not yet returned" would depend on the emulator's order, not on the
	 * program; a converged warp (the only case CUDA defines) has them all. */
	w = l->cur->lin / 32;
	return oxemu_warp_lanes(l, w);
}

/* shfl.sync's lane selection (PTX ISA, "shfl.sync"): c packs the segment
 * mask (bits 8..12) and the clamp lane (bits 0..4); only the low 5 bits of
 * b count. Segments of width w: c = (32 - w) << 8 | clamp. */
enum { SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_IDX };

static unsigned shfl(int mode, uint32_t mask, unsigned v, unsigned b, unsigned c)
{
	uint32_t present;
	const uint64_t *val = oxemu_warp_exchange(mask, v, &present);
	unsigned lane = oxemu_my_lane(), seg = c >> 8 & 0x1f, clamp = c & 0x1f;

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
	const uint64_t *val = oxemu_warp_exchange(mask, pred != 0, &present);

	for (unsigned i = 0; i < 32; i++)
		if ((present >> i & 1) && val[i])
			r |= 1u << i;
	return r;
}

unsigned __oxide_host_vote_all(unsigned mask, unsigned pred)
{
	uint32_t present, b;
	const uint64_t *val = oxemu_warp_exchange(mask, pred != 0, &present);

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
	const uint64_t *val = oxemu_warp_exchange(mask, v, &present);

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
	const uint64_t *val = oxemu_warp_exchange(mask, v, &present);

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

	(void)oxemu_warp_exchange(mask, 0, &present);
}

enum { RED_ADD, RED_UMIN, RED_UMAX, RED_MIN, RED_MAX, RED_AND, RED_OR, RED_XOR };

static unsigned redux(int op, uint32_t mask, unsigned v)
{
	uint32_t present;
	const uint64_t *val = oxemu_warp_exchange(mask, v, &present);
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
	Launch *l = oxemu_running;

	if (l == NULL)
		return pred != 0;
	l->bar_count += pred != 0;
	__oxide_host_barrier_sync();
	return l->bar_result;
}

unsigned __oxide_host_barrier_and(unsigned pred)
{
	Launch *l = oxemu_running;
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
			oxemu_make_ready(l, nb->waiting[i]);
	oxemu_named_reset(nb);
}

/* Counts warp w once every lane of it that has not returned arrived;
 * releases the barrier when the count is reached. 1 when it released. */
static int named_warp_arrived(Launch *l, NamedBarrier *nb, unsigned w,
                              Fiber *self)
{
	uint32_t all = oxemu_warp_lanes(l, w);

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
	Launch *l = oxemu_running;
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
		oxemu_stop_launch(STOP_ERROR);
	}
	nb = &l->named[id];
	if (nb->waiting == NULL) {
		nb->waiting = calloc(l->nthreads, sizeof *nb->waiting);
		if (nb->waiting == NULL) {
			snprintf(l->trap_why, sizeof l->trap_why, "no memory "
			         "for the emulation of named barrier %u", id);
			oxemu_stop_launch(STOP_ERROR);
		}
	}
	w = f->lin / 32;
	nb->threads = threads;
	nb->lanes[w] |= 1u << (f->lin % 32);
	if (wait)
		nb->waiting[nb->nwaiting++] = f;
	if (!named_warp_arrived(l, nb, w, f) && wait)
		oxemu_to_scheduler(l, f, 0);
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
	OxDim3 d = oxemu_here.cdim, c = {oxemu_here.ctaid.x % d.x, oxemu_here.ctaid.y % d.y, oxemu_here.ctaid.z % d.z};

	return c.x + d.x * (c.y + d.y * c.z);
}

unsigned __oxide_host_cluster_ctarank(void) { return cluster_rank(); }
unsigned __oxide_host_cluster_nctarank(void) { return oxemu_here.cdim.x * oxemu_here.cdim.y * oxemu_here.cdim.z; }
unsigned __oxide_host_cluster_ctaid_x(void) { return oxemu_here.ctaid.x % oxemu_here.cdim.x; }
unsigned __oxide_host_cluster_ctaid_y(void) { return oxemu_here.ctaid.y % oxemu_here.cdim.y; }
unsigned __oxide_host_cluster_ctaid_z(void) { return oxemu_here.ctaid.z % oxemu_here.cdim.z; }
unsigned __oxide_host_cluster_nctaid_x(void) { return oxemu_here.cdim.x; }
unsigned __oxide_host_cluster_nctaid_y(void) { return oxemu_here.cdim.y; }
unsigned __oxide_host_cluster_nctaid_z(void) { return oxemu_here.cdim.z; }
unsigned __oxide_host_clusterid_x(void) { return oxemu_here.ctaid.x / oxemu_here.cdim.x; }
unsigned __oxide_host_clusterid_y(void) { return oxemu_here.ctaid.y / oxemu_here.cdim.y; }
unsigned __oxide_host_clusterid_z(void) { return oxemu_here.ctaid.z / oxemu_here.cdim.z; }
unsigned __oxide_host_nclusterid_x(void) { return oxemu_here.nctaid.x / oxemu_here.cdim.x; }
unsigned __oxide_host_nclusterid_y(void) { return oxemu_here.nctaid.y / oxemu_here.cdim.y; }
unsigned __oxide_host_nclusterid_z(void) { return oxemu_here.nctaid.z / oxemu_here.cdim.z; }
unsigned __oxide_host_is_explicit_cluster(void) { return oxemu_here.explicit_cluster; }

/* Every block's threads waiting at a cluster or grid barrier go on. */
static void wake_barrier_waiters(Cluster *c)
{
	for (unsigned r = 0; r < c->n; r++) {
		Launch *b = &c->blocks[r];

		for (unsigned i = 0; i < b->ncwait; i++)
			oxemu_make_ready(b, b->cwait[i]);
		b->ncwait = 0;
	}
}

/* The current phase is complete: its waiters, in every block, go on. */
static void cluster_release(Cluster *c)
{
	c->phase++;
	c->narrived = 0;
	wake_barrier_waiters(c);
}

void __oxide_host_barrier_cluster_arrive(void)
{
	Launch *l = oxemu_running;
	Cluster *c;
	unsigned *mine;

	if (l == NULL)                /* a kernel called directly: one thread */
		return;
	c = l->cluster;
	if (c->coop)
		oxemu_fail_launch("barrier_cluster_arrive in a cooperative launch: not emulated yet (OX0200)");
	mine = &l->carrived[l->cur->lin];
	if (*mine != 0)
		oxemu_fail_launch("barrier_cluster_arrive twice without a barrier_cluster_wait between (undefined on a GPU)");
	*mine = c->phase + 1;
	if (++c->narrived == c->live)
		cluster_release(c);
}

void __oxide_host_barrier_cluster_wait(void)
{
	Launch *l = oxemu_running;
	unsigned *mine;

	if (l == NULL)
		return;
	mine = &l->carrived[l->cur->lin];
	if (*mine == 0)
		oxemu_fail_launch("barrier_cluster_wait without a barrier_cluster_arrive before it (undefined on a GPU)");
	if (l->cluster->phase < *mine) {  /* its phase is not complete yet */
		l->cwait[l->ncwait++] = l->cur;
		oxemu_to_scheduler(l, l->cur, 0);
	}
	*mine = 0;
}

/* A thread returned: the barrier no longer waits for it. */
void oxemu_cluster_returned(Launch *l, unsigned lin)
{
	Cluster *c = l->cluster;

	c->live--;
	if (l->carrived[lin] == c->phase + 1)
		c->narrived--;
	l->carrived[lin] = 0;
	if (c->live > 0 && c->narrived == c->live)
		cluster_release(c);
}

/* The first block with threads waiting at a cluster or grid barrier,
 * stopped as a hang at its first waiter (the caller says why), or NULL. */
static Launch *stop_first_waiter(Cluster *c)
{
	for (unsigned r = 0; r < c->n; r++) {
		Launch *b = &c->blocks[r];

		if (b->ncwait == 0)
			continue;
		b->trapped = STOP_ERROR;
		b->trap_block = b->ctaid;
		b->trap_thread = b->cwait[0]->tid;
		return b;
	}
	return NULL;
}

/* No thread of the cluster can go on, yet some wait for its barrier. */
int oxemu_cluster_hang(Cluster *c)
{
	Launch *b = stop_first_waiter(c);
	if (b)
		snprintf(b->trap_why, sizeof b->trap_why, "it would hang on a GPU: %u threads of this block wait "
		         "forever at barrier_cluster_wait, for which %u of the cluster's %u threads that have "
		         "not exited arrived", b->ncwait, c->narrived, c->live);
	return -1;
}

void *__oxide_host_mapa(void *p, unsigned rank)
{
	Launch *l = oxemu_running;
	Cluster *c;
	uintptr_t a = (uintptr_t)p, base;

	if (l == NULL)
		return rank == 0 ? p : NULL;
	c = l->cluster;
	base = (uintptr_t)l->shmem;
	if (a < base || a - base >= c->stride)
		oxemu_fail_launch("mapa of %p, which is not in this block's shared memory (undefined on a GPU)", p);
	if (c->coop && rank != 0)
		oxemu_fail_launch("mapa to block rank %u in a cooperative launch: not emulated yet (OX0200)", rank);
	if (c->coop)
		return p;
	if (rank >= c->n)
		oxemu_fail_launch("mapa to block rank %u of a cluster of %u blocks (undefined on a GPU)", rank, c->n);
	if (c->blocks[rank].finished)
		oxemu_fail_launch("mapa to block rank %u of the cluster, which has exited: its shared memory is gone "
		                  "(undefined on a GPU: end with cluster::sync() while other blocks use it)", rank);
	return c->blocks[rank].shmem + (a - base);
}

/* ---- grid::sync() (prims.def's grid_sync): as its PTX does, bar.sync 0;
 * thread (0,0,0) of the block arrives at the grid's barrier and waits for
 * the phase to complete (every block of the grid arrived; the block lets
 * the others run meanwhile, as at barrier.cluster); bar.sync 0.  Only a
 * cooperative launch runs the grid's blocks together (Cluster.coop):
 * elsewhere the call fails the launch, since on a GPU it may hang.  When
 * no thread can go on while blocks wait (a block returned, or its thread
 * (0,0,0) did, without arriving) the launch fails as a hang. */

static uint32_t grid_word;      /* the emulator's grid barrier word: unused */

void *__oxide_host_grid_barrier_word(void) { return &grid_word; }

static void grid_release(Cluster *c)
{
	c->gphase++;
	c->garrived = 0;
	wake_barrier_waiters(c);
}

/* Thread (0,0,0) of the running block: arrive, wait for the phase. */
static void grid_arrive(Launch *l)
{
	Cluster *c = l->cluster;
	unsigned target = c->gphase + 1;

	if (++c->garrived == c->n)
		grid_release(c);
	while (c->gphase < target) {
		l->cwait[l->ncwait++] = l->cur;
		oxemu_to_scheduler(l, l->cur, 0);
	}
}

void __oxide_host_grid_sync(void *word)
{
	Launch *l = oxemu_running;

	(void)word;
	if (l == NULL)                /* a kernel called directly: one thread */
		return;
	if (!l->cluster->coop)
		oxemu_fail_launch("grid::sync() in a launch that is not cooperative: it would hang on a GPU, where "
		                  "the grid's blocks need not be resident together (launch it with "
		                  "ox_launch_cooperative)");
	__oxide_host_barrier_sync();
	if (l->cur->lin == 0)
		grid_arrive(l);
	__oxide_host_barrier_sync();
}

/* No thread of the cooperative grid can go on, yet blocks wait at
 * grid::sync(): reported on the first waiting block. */
int oxemu_grid_hang(Cluster *c)
{
	unsigned done = 0;

	for (unsigned r = 0; r < c->n; r++)
		done += (unsigned)c->blocks[r].finished;
	Launch *b = stop_first_waiter(c);
	if (b)
		snprintf(b->trap_why, sizeof b->trap_why, "it would hang on a GPU: this block waits forever at "
		         "grid::sync(), for which %u of the grid's %u blocks arrived (%u returned without "
		         "arriving, or their thread (0,0,0) did)", c->garrived, c->n, done);
	return -1;
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
