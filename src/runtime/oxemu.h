/* oxemu.h: the host emulator behind oxrt.h (internal to src/runtime/).
 *
 * oxrt.c serves a module whose path ends in ".so" with these functions
 * instead of the CUDA driver: such a module is a shared object made from
 * `oxidec --target=host` output, and its kernels run on the CPU. Device
 * memory is host memory, so a device pointer is a host address.
 *
 * The second half is the emulator's side of the ABI of those objects:
 * oxidec lowers the device primitives to calls of the __oxide_host_*
 * functions, which the host program defines by linking oxemu.c and exports
 * to the module by linking with -rdynamic; each module exports
 * __oxide_launch_<kernel>(void **args) and the list __oxide_kernels. */
#ifndef OXEMU_H
#define OXEMU_H

#include "oxrt.h"

/* CUDA error codes the emulator reports (the driver's values). */
enum {
	OXEMU_INVALID_VALUE = 1,
	OXEMU_OUT_OF_MEMORY = 2,
	OXEMU_INVALID_IMAGE = 200,
	OXEMU_NOT_FOUND = 500,
	OXEMU_ASSERT = 710,
	OXEMU_LAUNCH_FAILED = 719,
};

/* oxrt.c: the error state, shared with oxemu.c */
__attribute__((format(printf, 2, 3)))
int oxrt_set_error(int code, const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
void oxrt_append_error(const char *fmt, ...);

/* oxemu.c: frees all device memory (the emulated context's end) */
void oxemu_shutdown(void);

/* oxemu.c: modules and kernels */
int oxemu_module_load(OxModule *m, const char *path);
void oxemu_module_unload(OxModule *m);
int oxemu_function(OxFunc *f, const OxModule *m, const char *name);

/* oxemu.c: launches run the whole grid before they return; a trap (a
 * failed device assert, a block that would hang) is reported once, by the
 * next oxemu_synchronize (what: for the message). */
int oxemu_launch(const OxFunc *f, OxDim3 grid, OxDim3 block, void **args);
int oxemu_synchronize(const char *call, const char *what);

/* oxemu.c: dynamic shared memory of the next launches (ox_launch's
 * shared_bytes), module globals by name (constant memory), and the
 * kernels' printf and dynamic shared memory */
int oxemu_set_dynamic_shared(size_t bytes);
/* oxemu.c: the stack limit a program asks for (ox_set_stack_size; 1,024
 * until then, like CUDA's); fibers get at least that much (and never less
 * than 256 KiB) from the next launch on */
int oxemu_set_stack_size(size_t bytes);
int oxemu_stack_size(size_t *bytes);
int oxemu_module_global(const OxModule *m, const char *name, OxDevPtr *ptr,
                        size_t *size);
int __oxide_host_vprintf(const char *fmt, const unsigned char *args);
void *__oxide_host_dynamic_shared(void);

/* oxemu.c: memory (host memory) and events (host time) */
int oxemu_alloc(OxDevPtr *p, size_t bytes);   /* freed by oxemu_shutdown */
int oxemu_free(OxDevPtr p);
int oxemu_copy_to_device(OxDevPtr dst, const void *src, size_t bytes);
int oxemu_copy_from_device(void *dst, OxDevPtr src, size_t bytes);
int oxemu_memset8(OxDevPtr p, unsigned char value, size_t bytes);
int oxemu_memset32(OxDevPtr p, uint32_t value, size_t count);
int oxemu_event_create(OxEvent *e);
int oxemu_event_record(OxEvent *e);
int oxemu_event_elapsed_ms(float *ms, OxEvent *start, OxEvent *end);
void oxemu_event_destroy(OxEvent *e);

/* oxemu.c: called by emulated kernels (the PTX special registers, bar.sync
 * and trap of the thread that calls them). Outside a launch they describe
 * a grid of one thread. */
unsigned __oxide_host_tid_x(void);
unsigned __oxide_host_tid_y(void);
unsigned __oxide_host_tid_z(void);
unsigned __oxide_host_ntid_x(void);
unsigned __oxide_host_ntid_y(void);
unsigned __oxide_host_ntid_z(void);
unsigned __oxide_host_ctaid_x(void);
unsigned __oxide_host_ctaid_y(void);
unsigned __oxide_host_ctaid_z(void);
unsigned __oxide_host_nctaid_x(void);
unsigned __oxide_host_nctaid_y(void);
unsigned __oxide_host_nctaid_z(void);
void __oxide_host_barrier(void);
_Noreturn void __oxide_host_trap(void);
/* CUDA's __assertfail (device_assert!): prints CUDA's message and traps;
 * the launch fails with CUDA_ERROR_ASSERT */
_Noreturn void __oxide_host_assertfail(const char *msg, const char *file,
                                       unsigned line, const char *func);

/* oxemu.c: warp operations (a rendezvous of the warp's lanes, like a
 * barrier), barriers with a reduction, fences (no-ops), timers (host
 * nanoseconds); oxidec's nvvm.prim ops call them. Predicates and bool
 * results are 0 / 1. */
unsigned __oxide_host_laneid(void);
unsigned __oxide_host_warpid(void);
unsigned __oxide_host_smid(void);
unsigned __oxide_host_activemask(void);
unsigned __oxide_host_shfl_idx(unsigned mask, unsigned v, unsigned b, unsigned c);
unsigned __oxide_host_shfl_up(unsigned mask, unsigned v, unsigned b, unsigned c);
unsigned __oxide_host_shfl_down(unsigned mask, unsigned v, unsigned b, unsigned c);
unsigned __oxide_host_shfl_bfly(unsigned mask, unsigned v, unsigned b, unsigned c);
unsigned __oxide_host_vote_all(unsigned mask, unsigned pred);
unsigned __oxide_host_vote_any(unsigned mask, unsigned pred);
unsigned __oxide_host_vote_ballot(unsigned mask, unsigned pred);
unsigned __oxide_host_match_any_b32(unsigned mask, unsigned v);
unsigned __oxide_host_match_any_b64(unsigned mask, unsigned long long v);
unsigned __oxide_host_match_all_b32(unsigned mask, unsigned v);
unsigned __oxide_host_match_all_b64(unsigned mask, unsigned long long v);
void __oxide_host_syncwarp(unsigned mask);
unsigned __oxide_host_redux_add(unsigned mask, unsigned v);
unsigned __oxide_host_redux_umin(unsigned mask, unsigned v);
unsigned __oxide_host_redux_umax(unsigned mask, unsigned v);
unsigned __oxide_host_redux_min(unsigned mask, unsigned v);
unsigned __oxide_host_redux_max(unsigned mask, unsigned v);
unsigned __oxide_host_redux_and(unsigned mask, unsigned v);
unsigned __oxide_host_redux_or(unsigned mask, unsigned v);
unsigned __oxide_host_redux_xor(unsigned mask, unsigned v);
unsigned __oxide_host_barrier_popc(unsigned pred);
unsigned __oxide_host_barrier_and(unsigned pred);
unsigned __oxide_host_barrier_or(unsigned pred);
/* barrier.sync / barrier.arrive id, threads (named barriers, counted by
 * warps); a bad id or count, or a barrier that cannot complete, fails the
 * launch */
void __oxide_host_barrier_sync_count(unsigned id, unsigned threads);
void __oxide_host_barrier_arrive_count(unsigned id, unsigned threads);
void __oxide_host_fence_block(void);
void __oxide_host_fence_device(void);
void __oxide_host_fence_system(void);
unsigned __oxide_host_clock(void);
unsigned long long __oxide_host_clock64(void);
unsigned long long __oxide_host_globaltimer(void);
void __oxide_host_nanosleep(unsigned ns);

#endif
