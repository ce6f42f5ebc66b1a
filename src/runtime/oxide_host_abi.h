/* oxide_host_abi.h: the ABI between a module made by `oxidec
 * --target=host` and the host program that runs it by emulation.
 *
 * The module's side: for each kernel K, void __oxide_launch_K(void **args)
 * (args[i] points at the value of K's i-th PTX parameter) and the list
 * __oxide_kernels (every kernel name, each ended by a NUL, then an empty
 * name), for a cluster kernel K const unsigned __oxide_cluster_K[3] (its
 * blocks per cluster), and const unsigned __oxide_static_shared_bytes[1]
 * (the block's static shared memory). src/emit/host.c makes them;
 * oxemu_backend.c finds them with dlsym.
 *
 * The program's side, declared below from the registry of device
 * primitives (src/ir/prims.def): the functions the module's code calls.
 * The device primitives are the emulator's __oxide_host_* functions
 * (oxemu*.c; src/passes lowers the nvvm ops and nvvm.prim to calls of the
 * registry's host entries), libdevice's math is __nv_* (oxmath.c).
 * The host program defines them by linking src/runtime/ and exports them
 * to the module by linking with -rdynamic. oxemu*.c and oxmath.c include
 * this header, so each definition is checked against its declaration;
 * tests/abi/run.sh checks that every name src/passes emits is declared
 * here and that every declaration has a definition. */
#ifndef OXIDE_HOST_ABI_H
#define OXIDE_HOST_ABI_H

/* the module's side (for hand-written modules, e.g. tests/emu/kernels.c) */
typedef void OxideLaunchFn(void **args);
extern const char __oxide_kernels[];

/* The program's side: every DEVICE row of the registry
 * (src/ir/prims.def) is the emulator's __oxide_host_NAME, every LIBDEVICE
 * row __nv_NAME, with the row's signature:
 *
 *   special registers: of the calling thread; outside a launch they
 *     describe a grid of one thread
 *   barrier_sync: bar.sync 0; trap ends the launch, which fails
 *   assertfail: CUDA's __assertfail (device_assert!): prints CUDA's
 *     message and traps; the launch fails with CUDA_ERROR_ASSERT
 *   vprintf: CUDA's vprintf (printf!); dynamic_shared: the launch's
 *     dynamic shared memory; malloc, free: CUDA's device heap, the C
 *     library's (16-byte-aligned blocks, null when out of memory)
 *   warp operations: a rendezvous of the warp's lanes, like a barrier;
 *     barriers with a reduction; fences (no-ops); timers (host
 *     nanoseconds); barrier_{sync,arrive}_count id, threads: named
 *     barriers, counted by warps; a bad id or count, or a barrier that
 *     cannot complete, fails the launch
 *   half-precision conversions and arithmetic, fp8 conversions (one
 *     rounding to nearest even, bit-exact with the GPU's: oxemu_half.c says
 *     why), mma / ldmatrix (warp-collective, the PTX
 *     ISA's fragments), cp.async (queued per thread until wait_group)
 *   Hopper: mbarriers (phases, transaction bytes; a spin that cannot end
 *     fails the launch), bulk and TMA copies (the tensor map as
 *     ox_tensor_map_encode wrote it for the emulator), smem_addr (dynamic
 *     shared memory only), wgmma (descriptors, swizzles, fragments)
 *   clusters: the cluster registers of the running block; barrier.cluster
 *     (phases over the cluster's threads that have not exited; misuse or
 *     a barrier that cannot complete fails the launch); mapa (the same
 *     offset in the shared memory of the cluster's block `rank`)
 *   grid_sync: grid::sync() of a cooperative launch (its blocks run
 *     together; elsewhere, or when it cannot complete, the launch fails
 *     as a hang); grid_barrier_word: the emulator's word, which
 *     grid_sync ignores
 *   __nv_*: libdevice's math (oxmath.c, over <math.h>; the fast_*
 *     functions are the accurate ones) */
#define OXT_u16 unsigned short
#define OXT_u32 unsigned
#define OXT_i32 int
#define OXT_u64 unsigned long long
#define OXT_i64 long long
#define OXT_f32 float
#define OXT_f64 double
#define OXT_ptr void *
#define OXT_sptr void *
#define OXT_gptr void *
#define OXT_cstr const char *
#define OXT_bytes const unsigned char *
#define OXT_void void
#define OXT_never _Noreturn void
#define OXT_out_f32 float *
#define OXT_out_u32 unsigned *
#define OXT_out_i32 int *
#define OXT_io_f32 float *
#define A0() (void)
#define A1(t1, n1) (OXT_##t1 n1)
#define A2(t1, n1, t2, n2) (OXT_##t1 n1, OXT_##t2 n2)
#define A3(t1, n1, t2, n2, t3, n3) (OXT_##t1 n1, OXT_##t2 n2, OXT_##t3 n3)
#define A4(t1, n1, t2, n2, t3, n3, t4, n4) (OXT_##t1 n1, OXT_##t2 n2, OXT_##t3 n3, OXT_##t4 n4)
#define A5(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5) (OXT_##t1 n1, OXT_##t2 n2, OXT_##t3 n3, OXT_##t4 n4, OXT_##t5 n5)
#define A6(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6) \
	(OXT_##t1 n1, OXT_##t2 n2, OXT_##t3 n3, OXT_##t4 n4, OXT_##t5 n5, OXT_##t6 n6)
#define A7(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6, t7, n7) \
	(OXT_##t1 n1, OXT_##t2 n2, OXT_##t3 n3, OXT_##t4 n4, OXT_##t5 n5, OXT_##t6 n6, OXT_##t7 n7)
#define A8(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6, t7, n7, t8, n8) \
	(OXT_##t1 n1, OXT_##t2 n2, OXT_##t3 n3, OXT_##t4 n4, OXT_##t5 n5, OXT_##t6 n6, OXT_##t7 n7, OXT_##t8 n8)
#define A9(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6, t7, n7, t8, n8, t9, n9) \
	(OXT_##t1 n1, OXT_##t2 n2, OXT_##t3 n3, OXT_##t4 n4, OXT_##t5 n5, OXT_##t6 n6, OXT_##t7 n7, OXT_##t8 n8, OXT_##t9 n9)
#define A11(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6, t7, n7, t8, n8, t9, n9, t10, n10, t11, n11) \
	(OXT_##t1 n1, OXT_##t2 n2, OXT_##t3 n3, OXT_##t4 n4, OXT_##t5 n5, OXT_##t6 n6, OXT_##t7 n7, \
	 OXT_##t8 n8, OXT_##t9 n9, OXT_##t10 n10, OXT_##t11 n11)
/* Not a primitive: the running block's static shared memory, where the
 * host target puts the Shared<T> statics (src/passes/nvvm_host.c); its
 * size is the module's __oxide_static_shared_bytes. */
void *__oxide_host_static_shared(void);
#define DEVICE(name, cls, lower, nvvm, flags, ret, args) OXT_##ret __oxide_host_##name args;
#define LIBDEVICE(name, ret, args) OXT_##ret __nv_##name args;
#include "../ir/prims.def"
#undef A0
#undef A1
#undef A2
#undef A3
#undef A4
#undef A5
#undef A6
#undef A7
#undef A8
#undef A9
#undef A11

#endif
