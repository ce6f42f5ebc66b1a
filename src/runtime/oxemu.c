/* oxemu.c: runs the kernels of `oxidec --target=host` modules on the CPU,
 * behind the oxrt.h API (see oxemu.h). Device memory is host memory.
 *
 * A launch runs its blocks one after another, in the GPU's order (x
 * fastest). The threads of a block are cooperative fibers (ucontext), so
 * bar.sync works: a thread that calls __oxide_host_barrier() suspends, and
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
 *   3. else every live thread waits at the barrier: release them all;
 *   4. else the block is done.
 *
 * Warp-level operations (shuffle, vote; not yet in oxidec) fit the same
 * scheme: the op stores its operand in a slot of the thread's warp (warp =
 * linear thread index / 32) and the fiber waits, like at a barrier, but in
 * a list of its warp. A step between 1 and 2 releases a warp whose live
 * lanes all wait at the op: it computes every lane's result from the slots
 * and makes those fibers ready. Step 2 starts the rest of a partly started
 * warp before a block barrier can release, so a warp always completes. A
 * member mask (divergent warps) would be stored with the slots; lanes
 * outside it do not count.
 *
 * __oxide_host_trap() ends the launch: the trapping fiber switches back to
 * the scheduler for good, the other threads are abandoned (their stacks
 * are freed), and the next synchronizing call reports the trap like the
 * GPU does, as CUDA_ERROR_LAUNCH_FAILED, naming the block and the thread.
 *
 * Stacks are mmap'd, STACK_BYTES each with a guard page below, registered
 * with valgrind and annotated for AddressSanitizer where those exist. The
 * emulator is not thread-safe (neither is oxrt); its per-thread state is
 * _Thread_local all the same, so a later version can run blocks on several
 * threads. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* MAP_ANONYMOUS, MAP_STACK, ucontext */
#endif
#include "oxemu.h"

#include <dlfcn.h>
#include <errno.h>
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

typedef struct {
	ucontext_t ctx;
	char *map;                    /* guard page, then the stack */
	size_t map_len;
	unsigned vg_id;               /* valgrind's stack id */
	void *fake;                   /* ASan's fake stack while away */
	OxDim3 tid;                   /* the thread it runs */
} Fiber;

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
	int trapped, failed;
	OxDim3 trap_block, trap_thread;
} Launch;

/* The special registers of the running thread. */
typedef struct {
	OxDim3 tid, ntid, ctaid, nctaid;
} Where;

static const Where lone = {{0, 0, 0}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}};
static _Thread_local Where here = {{0, 0, 0}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}};
static _Thread_local Launch *running;

/* A trap waiting for the next synchronizing call. */
static struct {
	int pending;
	char kernel[128], path[512];
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
	here.tid = f->tid;
}

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

static Fiber *new_fiber(Launch *l)
{
	size_t page = page_size();
	Fiber *f = calloc(1, sizeof *f);

	if (f == NULL) {
		l->failed = 1;
		return NULL;
	}
	f->map_len = STACK_BYTES + page;
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
	f->ctx.uc_stack.ss_size = STACK_BYTES;
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

static Fiber *pick_fiber(Launch *l)
{
	Fiber **t;

	if (l->ready_at < l->nready)
		return l->ready[l->ready_at++];
	if (l->next < l->nthreads)
		return l->nidle > 0 ? l->idle[--l->nidle] : new_fiber(l);
	if (l->nwait == 0)
		return NULL;
	t = l->ready;                 /* release the barrier */
	l->ready = l->wait;
	l->wait = t;
	l->nready = l->nwait;
	l->nwait = 0;
	l->ready_at = 0;
	return l->ready[l->ready_at++];
}

/* 0 when every thread of the block returned. */
static int run_block(Launch *l)
{
	Fiber *f;

	l->next = 0;
	l->nready = l->ready_at = 0;
	while ((f = pick_fiber(l)) != NULL) {
		resume(l, f);
		if (l->trapped)
			return -1;
	}
	return l->failed ? -1 : 0;
}

static int run_grid(Launch *l, OxDim3 grid)
{
	for (unsigned z = 0; z < grid.z; z++)
		for (unsigned y = 0; y < grid.y; y++)
			for (unsigned x = 0; x < grid.x; x++) {
				here.ctaid.x = x;
				here.ctaid.y = y;
				here.ctaid.z = z;
				if (run_block(l) != 0)
					return -1;
			}
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
	return oxrt_set_error(OXEMU_INVALID_VALUE, "ox_launch(%s in %s, grid "
	                      "%ux%ux%u, block %ux%ux%u): "
	                      "CUDA_ERROR_INVALID_VALUE (emulated: %s)",
	                      f->name, f->path, grid.x, grid.y, grid.z,
	                      block.x, block.y, block.z, why);
}

static void end_launch(Launch *l, const OxFunc *f)
{
	for (unsigned i = 0; i < l->nall; i++)
		free_fiber(l->all[i]);
	free(l->all);
	running = NULL;
	here = lone;
	if (!l->trapped)
		return;
	trap.pending = 1;
	snprintf(trap.kernel, sizeof trap.kernel, "%s", f->name);
	snprintf(trap.path, sizeof trap.path, "%s", f->path);
	trap.block = l->trap_block;
	trap.thread = l->trap_thread;
}

int oxemu_launch(const OxFunc *f, OxDim3 grid, OxDim3 block, void **args)
{
	Launch l;

	if (check_dims(f, grid, block) != 0)
		return -1;
	if (running != NULL)
		return oxrt_set_error(OXEMU_INVALID_VALUE, "ox_launch(%s): "
		                      "called from an emulated kernel", f->name);
	memset(&l, 0, sizeof l);
	memcpy(&l.entry, &f->handle, sizeof l.entry);
	l.args = args;
	l.nthreads = block.x * block.y * block.z;
	l.all = calloc(4 * (size_t)l.nthreads, sizeof *l.all);
	if (l.all == NULL)
		return oxrt_set_error(OXEMU_OUT_OF_MEMORY, "ox_launch(%s): "
		                      "CUDA_ERROR_OUT_OF_MEMORY (emulated)",
		                      f->name);
	l.idle = l.all + l.nthreads;
	l.wait = l.idle + l.nthreads;
	l.ready = l.wait + l.nthreads;
	here.ntid = block;
	here.nctaid = grid;
	running = &l;
	run_grid(&l, grid);
	end_launch(&l, f);
	if (l.failed)
		return oxrt_set_error(OXEMU_OUT_OF_MEMORY, "ox_launch(%s in %s): "
		                      "CUDA_ERROR_OUT_OF_MEMORY (emulated: no "
		                      "memory for a thread's stack)", f->name,
		                      f->path);
	return 0;
}

int oxemu_synchronize(const char *call, const char *what)
{
	if (!trap.pending)
		return 0;
	trap.pending = 0;
	oxrt_set_error(OXEMU_LAUNCH_FAILED, "%s(%s): CUDA_ERROR_LAUNCH_FAILED "
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
void __oxide_host_barrier(void)
{
	Launch *l = running;
	Fiber *f;

	if (l == NULL)                /* a kernel called directly: one thread */
		return;
	f = l->cur;
	l->wait[l->nwait++] = f;
	to_scheduler(l, f, 0);
}

_Noreturn void __oxide_host_trap(void)
{
	Launch *l = running;

	if (l == NULL) {
		fflush(stdout);
		fputs("oxrt: an emulated kernel called directly (outside "
		      "ox_launch) trapped: a Rust panic\n", stderr);
		abort();
	}
	l->trapped = 1;
	l->trap_block = here.ctaid;
	l->trap_thread = here.tid;
	to_scheduler(l, l->cur, 1);
	abort();                      /* never resumed */
}

/* ------------------------------------------------- modules and kernels */

int oxemu_module_load(OxModule *m, const char *path)
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
		oxrt_set_error(OXEMU_INVALID_IMAGE, "ox_module_load(%s): "
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
		return oxrt_set_error(OXEMU_INVALID_IMAGE, "ox_module_load(%s): "
		                      "CUDA_ERROR_INVALID_IMAGE (emulated: not a "
		                      "module made by oxidec --target=host)", path);
	}
	m->handle = h;
	return 0;
}

void oxemu_module_unload(OxModule *m)
{
	if (m->handle != NULL)
		dlclose(m->handle);
	m->handle = NULL;
}

int oxemu_function(OxFunc *f, const OxModule *m, const char *name)
{
	char sym[300];
	const char *names;

	snprintf(f->name, sizeof f->name, "%s", name);
	snprintf(f->path, sizeof f->path, "%s", m->path);
	f->handle = NULL;
	if (m->handle == NULL)
		return oxrt_set_error(OXEMU_INVALID_VALUE, "ox_function(%s): "
		                      "module %s is not loaded", name, m->path);
	snprintf(sym, sizeof sym, "__oxide_launch_%s", name);
	f->handle = dlsym(m->handle, sym);
	if (f->handle != NULL)
		return 0;
	oxrt_set_error(OXEMU_NOT_FOUND, "ox_function(%s): CUDA_ERROR_NOT_FOUND "
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

int oxemu_alloc(OxDevPtr *p, size_t bytes)
{
	void *mem = NULL;
	Alloc *a;

	if (bytes == 0)
		return oxrt_set_error(OXEMU_INVALID_VALUE, "ox_alloc(0 bytes): "
		                      "CUDA_ERROR_INVALID_VALUE (emulated)");
	if (bytes > SIZE_MAX - ALLOC_HEADER ||
	    posix_memalign(&mem, 256, ALLOC_HEADER + bytes) != 0)
		return oxrt_set_error(OXEMU_OUT_OF_MEMORY, "ox_alloc(%zu bytes): "
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
int oxemu_free(OxDevPtr p)
{
	Alloc *a;

	if (p == 0)
		return 0;
	for (a = allocs.next; a != &allocs; a = a->next)
		if ((char *)a + ALLOC_HEADER == host_ptr(p)) {
			release(a);
			return 0;
		}
	return oxrt_set_error(OXEMU_INVALID_VALUE, "ox_free(0x%llx): "
		                      "CUDA_ERROR_INVALID_VALUE (emulated: not "
		                      "an allocation of ox_alloc, or freed "
		                      "already)", (unsigned long long)p);
}

void oxemu_shutdown(void)
{
	while (allocs.next != &allocs)
		release(allocs.next);
	trap.pending = 0;
}

int oxemu_copy_to_device(OxDevPtr dst, const void *src, size_t bytes)
{
	memcpy(host_ptr(dst), src, bytes);
	return 0;
}

int oxemu_copy_from_device(void *dst, OxDevPtr src, size_t bytes)
{
	if (oxemu_synchronize("ox_copy_from_device", "device to host") != 0)
		return -1;
	memcpy(dst, host_ptr(src), bytes);
	return 0;
}

int oxemu_memset8(OxDevPtr p, unsigned char value, size_t bytes)
{
	memset(host_ptr(p), value, bytes);
	return 0;
}

int oxemu_memset32(OxDevPtr p, uint32_t value, size_t count)
{
	uint32_t *w = host_ptr(p);

	for (size_t i = 0; i < count; i++)
		w[i] = value;
	return 0;
}

int oxemu_event_create(OxEvent *e)
{
	e->handle = calloc(1, sizeof(struct timespec));
	if (e->handle == NULL)
		return oxrt_set_error(OXEMU_OUT_OF_MEMORY, "ox_event_create: "
		                      "CUDA_ERROR_OUT_OF_MEMORY (emulated)");
	return 0;
}

int oxemu_event_record(OxEvent *e)
{
	clock_gettime(CLOCK_MONOTONIC, e->handle);
	return 0;
}

int oxemu_event_elapsed_ms(float *ms, OxEvent *start, OxEvent *end)
{
	const struct timespec *a = start->handle, *b = end->handle;

	if (oxemu_synchronize("ox_event_elapsed_ms", "end event") != 0)
		return -1;
	*ms = (float)((double)(b->tv_sec - a->tv_sec) * 1e3 +
	              (double)(b->tv_nsec - a->tv_nsec) / 1e6);
	return 0;
}

void oxemu_event_destroy(OxEvent *e)
{
	free(e->handle);
	e->handle = NULL;
}
