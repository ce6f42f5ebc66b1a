/* oxemu_hopper.c: the host emulator's Hopper primitives: shared
 * addresses, mbarriers, bulk and tensor (TMA) copies, elect.sync,
 * setmaxnreg, wgmma; the section's header below says how each keeps the
 * GPU's synchronization. */
#include "oxemu_impl.h"

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
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)oxemu_dyn_shared.buf;

	if (oxemu_dyn_shared.buf == NULL || a < b || a - b > oxemu_dyn_shared.size)
		return -1;
	return (long long)(a - b);
}

unsigned __oxide_host_smem_addr(void *p)
{
	long long off = dyn_offset(p);

	if (off < 0)
		oxemu_fail_launch("smem_addr of memory outside the dynamic shared memory (%p): not emulated (static "
		                  "shared arrays are outside the emulated shared window: use dynamic shared memory)", p);
	return SMEM_BASE + (unsigned)off;
}

/* The host address of `bytes` bytes at shared address a (a descriptor's),
 * which must lie in the launch's dynamic shared memory. */
static unsigned char *smem_host(uint64_t a, unsigned bytes, const char *op)
{
	if (a < SMEM_BASE || a - SMEM_BASE + bytes > oxemu_dyn_shared.size)
		oxemu_fail_launch("%s: shared address %#llx is outside the launch's %zu bytes of dynamic shared memory "
		                  "(shared addresses %#x and up in the emulator)", op, (unsigned long long)a,
		                  oxemu_dyn_shared.size, (unsigned)SMEM_BASE);
	return oxemu_dyn_shared.buf + (a - SMEM_BASE);
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
		oxemu_fail_launch("%s(%p): an mbarrier is 8-byte aligned (undefined on a GPU)", op, bar);
	w = mbar_word(bar);
	if (!(w >> 63))
		oxemu_fail_launch("%s on an mbarrier that mbarrier_init did not initialize (or mbarrier_inval "
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
	if (oxemu_running != NULL)
		oxemu_running->mbar_events++;
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
void oxemu_mbar_show(char *buf, size_t len, const void *bar)
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
		oxemu_fail_launch("mbarrier_init(%p): an mbarrier is 8-byte aligned (undefined on a GPU)", bar);
	if (count == 0 || count > MBAR_MAX)
		oxemu_fail_launch("mbarrier_init(count %u): the count is 1 .. 2^20 - 1 (undefined on a GPU)", count);
	mbar_store(bar, m);
}

void __oxide_host_mbarrier_inval(void *bar)
{
	(void)mbar_load(bar, "mbarrier_inval");
	memset(bar, 0, 8);
	if (oxemu_running != NULL)
		oxemu_running->mbar_events++;
}

/* expect-tx of tx bytes, then arrive-on */
static void mbar_arrive(void *bar, unsigned tx, const char *op)
{
	Mbar m = mbar_load(bar, op);

	if ((long long)m.tx + tx > MBAR_MAX)
		oxemu_fail_launch("%s: %d + %u transaction bytes exceed 2^20 - 1 (undefined on a GPU)", op, m.tx, tx);
	if (m.pending == 0)
		oxemu_fail_launch("%s: every arrival of the current phase is in already (it waits for %d transaction "
		                  "bytes): undefined on a GPU", op, m.tx);
	m.tx += (int)tx;
	m.pending--;
	mbar_update(bar, m);
}

void __oxide_host_mbarrier_arrive(void *bar) { mbar_arrive(bar, 0, "mbarrier_arrive"); }
void __oxide_host_mbarrier_arrive_expect_tx(void *bar, unsigned bytes) { mbar_arrive(bar, bytes, "mbarrier_arrive_expect_tx"); }

/* the arrival lands on block rank's mbarrier at bar's offset (mapa's
 * checks: bar in this block's shared memory, rank in the cluster and not
 * exited); the emulator's one-thread-at-a-time order is stronger than
 * the release it stands for */
void __oxide_host_mbarrier_arrive_cluster(void *bar, unsigned rank)
{
	void *theirs = __oxide_host_mapa(bar, rank);

	if (theirs == NULL)
		oxemu_fail_launch("mbarrier_arrive_cluster(%p, rank %u) outside a launch, a cluster of one block", bar, rank);
	mbar_arrive(theirs, 0, "mbarrier_arrive_cluster");
}

/* complete-tx: an asynchronous copy's bytes are in */
static void mbar_complete_tx(void *bar, unsigned bytes, const char *op)
{
	Mbar m = mbar_load(bar, op);

	if ((long long)m.tx - bytes < -MBAR_MAX)
		oxemu_fail_launch("%s: %d - %u transaction bytes go below -(2^20 - 1) (undefined on a GPU)", op, m.tx, bytes);
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
	Launch *l = oxemu_running;
	Fiber *f;

	if (mbar_phase_done(bar, parity))
		return 1;
	if (l == NULL)
		oxemu_fail_launch("mbarrier_try_wait_parity: one thread waits for a phase that nothing else can complete");
	f = l->cur;
	f->spin_bar = bar;
	f->spin_parity = parity;
	l->spin[(l->spin_at + l->nspin) % l->nthreads] = f;
	l->nspin++;
	oxemu_to_scheduler(l, f, 0);
	if (!mbar_phase_done(bar, parity))
		return 0;
	l->spin_wakes++;
	return 1;
}

/* The emulator runs one thread at a time, and an mbarrier's init is
 * visible to the next thread that runs; the async proxy (copies, wgmma)
 * reads memory when it is issued, after the thread's earlier stores. */
void __oxide_host_fence_proxy_async_shared(void) {}
void __oxide_host_fence_mbarrier_init(void) {}

void __oxide_host_bulk_copy_g2s(void *dst, void *src, unsigned bytes, void *bar)
{
	if (bytes % 16 != 0 || (uintptr_t)dst % 16 != 0 || (uintptr_t)src % 16 != 0)
		oxemu_fail_launch("bulk_copy_g2s(%p, %p, %u bytes): the size and both addresses are multiples of 16 "
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
		oxemu_fail_launch("%s: %p holds no tensor map of ox_tensor_map_encode (pass the OxTensorMap as a by-value "
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
		oxemu_fail_launch("%s with a tensor map of rank %u (a %u-D copy needs rank %u)", op, d->rank, dim, dim);
	for (unsigned i = 0; i < d->rank; i++)
		bytes *= d->box[i];
	if (bytes > SMEM_MAX || (off >= 0 && (uint64_t)off + bytes > oxemu_dyn_shared.size))
		oxemu_fail_launch("%s: the box of %llu bytes at %p does not fit in shared memory (the launch has %zu bytes "
		                  "of dynamic shared memory; undefined on a GPU)", op, (unsigned long long)bytes, smem,
		                  oxemu_dyn_shared.size);
	if ((uintptr_t)smem % 128 != 0)
		oxemu_fail_launch("%s: the shared box at %p is 128-byte aligned (undefined on a GPU)", op, smem);
	if (d->swizzle != 0 && row != d->swizzle)
		oxemu_fail_launch("%s: box rows of %u bytes with the %u-byte swizzle: not emulated (only rows as wide as "
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
static unsigned tma_box(const OxTensorMapDesc *d, unsigned char *smem, const int *c, int store, const char *op)
{
	unsigned e = d->elem_bytes, n = 1;   /* tma_desc checked n * e <= SMEM_MAX */
	unsigned char *global = (unsigned char *)(uintptr_t)d->global;

	/* measured, the same with nvcc's code: the H200 stops a load or store
	 * whose box starts at an innermost byte offset (x * element bytes, x
	 * below 0 included) that is not a multiple of 16 with an illegal
	 * instruction */
	if ((long long)c[0] * e % 16 != 0)
		oxemu_fail_launch("%s: the box starts at x = %d, byte %lld of a row: not a multiple of 16 bytes (the H200 "
		                  "faults: illegal instruction)", op, c[0], (long long)c[0] * e);
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

	mbar_complete_tx(bar, tma_box(&d, dst, c, 0, op), op);
}

/* The multicast loads write the box into every CTA of the cluster that
 * cta_mask names (bit r: rank r), at dst's offset in each one's shared
 * memory, and complete the transaction bytes on each one's mbarrier at
 * bar's offset (mapa's addresses). */
static void tma_load_multicast(void *dst, const void *map, unsigned dim, const int *c, void *bar,
                               unsigned short cta_mask, const char *op)
{
	unsigned n = oxemu_running != NULL ? oxemu_running->cluster->n : 1;
	OxTensorMapDesc d = tma_desc(map, dim, dst, op);

	if (cta_mask == 0 || cta_mask >> n != 0)
		oxemu_fail_launch("%s: cta_mask %#x names %s (a cluster of %u blocks; undefined on a GPU)", op, cta_mask,
		                  cta_mask == 0 ? "no CTA" : "ranks beyond the cluster", n);
	for (unsigned r = 0; r < n; r++)
		if (cta_mask >> r & 1) {
			unsigned char *to = n > 1 ? __oxide_host_mapa(dst, r) : dst;
			void *their_bar = n > 1 ? __oxide_host_mapa(bar, r) : bar;
			mbar_complete_tx(their_bar, tma_box(&d, to, c, 0, op), op);
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
			oxemu_fail_launch("%s: coordinate %u is %d: a store's box must not start below 0 (the H200 faults: "
			                  "illegal instruction)", op, i, c[i]);
	(void)tma_box(&d, src, c, 1, op);
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
		oxemu_fail_launch("bulk_copy_s2g(%p, %p, %u bytes): the size and both addresses are multiples of 16 "
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

	(void)oxemu_warp_exchange(mask, 0, &present);
	return present != 0 && oxemu_my_lane() == (unsigned)__builtin_ctz(present);
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
		uint32_t all = oxemu_warp_lanes(l, w);

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
			oxemu_make_ready(l, gs->waiting[i]);
	memset(gs->lanes, 0, sizeof gs->lanes);
	gs->nwaiting = 0;
}

void oxemu_group_returned(Launch *l, unsigned gi)
{
	if (group_complete(l, gi))
		group_release(l, &l->groups[gi], NULL);
}

/* The running thread waits until every thread of its warpgroup that has
 * not returned arrived. */
static void warpgroup_sync(void)
{
	Launch *l = oxemu_running;
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
		oxemu_to_scheduler(l, f, 0);
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
		oxemu_fail_launch("%s: a matrix descriptor with base offset %u: not emulated (operands that start at a "
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
	unsigned q = (oxemu_running != NULL ? oxemu_running->cur->lin : 0) % 4;

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
	unsigned t = oxemu_running != NULL ? oxemu_running->cur->lin % 128 : 0;

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
	oxemu_warp_gather2(a[0], a[1], alo);
	oxemu_warp_gather2(a[2], a[3], ahi);
	for (unsigned h = 0; h < 2; h++)
		for (unsigned k = 0; k < 16; k++) {
			unsigned lane = 4 * g + k % 8 / 2;
			uint32_t reg = k < 8 ? alo[lane][h] : ahi[lane][h];

			arow[h][k] = value(oxemu_half_of(reg, k % 2));
		}
	wgmma_rows(d, n, arow, desc_b, scale_d, value, op);
}

/* one emulator function per row (prims.def's WGMMA_SHAPES) */
#define WGMMA_HOST_SS(n, nd, t) \
	void __oxide_host_wgmma_m64n##n##k16_f32_##t(float *d, unsigned long long desc_a, unsigned long long desc_b, \
	                                             unsigned scale_d) \
	{ \
		wgmma_ss(d, n, desc_a, desc_b, scale_d, oxemu_##t##_value, "wgmma_m64n" #n "k16_f32_" #t); \
	}
#define WGMMA_HOST_RS(n, nd, t) \
	void __oxide_host_wgmma_m64n##n##k16_f32_##t##_rs(float *d, unsigned a0, unsigned a1, unsigned a2, \
	                                                  unsigned a3, unsigned long long desc_b, unsigned scale_d) \
	{ \
		const unsigned a[4] = { a0, a1, a2, a3 }; \
		wgmma_rs(d, n, a, desc_b, scale_d, oxemu_##t##_value, "wgmma_m64n" #n "k16_f32_" #t "_rs"); \
	}
WGMMA_SHAPES(WGMMA_HOST_SS, bf16)
WGMMA_SHAPES(WGMMA_HOST_SS, f16)
WGMMA_SHAPES(WGMMA_HOST_RS, bf16)
WGMMA_SHAPES(WGMMA_HOST_RS, f16)
#undef WGMMA_HOST_SS
#undef WGMMA_HOST_RS
