/* oxrt.h: a small host runtime for C programs that run oxidec's kernels.
 *
 * libcuda.so.1 is opened with dlopen on ox_init(), so programs need neither
 * cuda.h nor -lcuda to build, only -ldl. One device (0), its primary
 * context; its default stream, or streams of ox_stream_create. Every call returns 0 on success and -1 on
 * failure; the failure is described by ox_error() (the failing call, the
 * file or kernel it concerned, the CUDA error name and text) and its CUDA
 * error code by ox_error_code(). Not thread-safe.
 *
 * Without a GPU: a module whose path ends in ".so" (`oxidec --target=host`
 * output linked with `cc -shared M.o -o M.so -lm`) runs on the CPU by
 * emulation, through the same calls; device memory is then host memory.
 * Build the program with every .c file of src/runtime/ (oxrt.c,
 * oxcuda.c, oxemu*.c, oxmath.c) and link it with -rdynamic (the module
 * calls the emulator's __oxide_host_* functions, oxide_host_abi.h).
 * ox_init() succeeds without a driver; a .ptx or .cubin module then fails
 * to load, saying why. One process uses one kind of module. */
#ifndef OXRT_H
#define OXRT_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t OxDevPtr;            /* a device address (CUdeviceptr) */

/* A device address as a typed C pointer, as the launchers of `oxidec
 * --emit=header` take them (`const float *a, size_t a_len` for a
 * `&[f32]`), so the C compiler rejects a buffer of another element type;
 * ox_devptr is the way back. Such a pointer is never dereferenced on the
 * host (under emulation it happens to be a host address). */
#define OX_DEVICE_PTR(type, p) ((type *)(uintptr_t)(p))
static inline OxDevPtr ox_devptr(const void *p)
{
	return (OxDevPtr)(uintptr_t)p;
}

struct OxBackend;                     /* src/runtime/oxbackend.h */

typedef struct {
	void *handle;                 /* CUmodule, or the emulator's */
	char  path[512];              /* for error messages */
	const struct OxBackend *backend;  /* picked by ox_module_load */
	int   device;                 /* the device current at its load */
} OxModule;

typedef struct {
	void *handle;                 /* CUfunction, or the emulator's */
	char  name[128];              /* kernel name */
	char  path[512];              /* module it came from */
	const struct OxBackend *backend;  /* its module's */
	void *module;                 /* the emulator's: its module's handle */
	int   device;                 /* its module's */
} OxFunc;

typedef struct {
	void *handle;                 /* CUevent */
} OxEvent;

typedef struct {
	unsigned x, y, z;
} OxDim3;

/* A stream (CUstream): work issued on one stream runs in issue order;
 * work on different streams may overlap. A NULL `const OxStream *`
 * wherever one is taken means the default stream, which is also what
 * the calls without a stream (ox_launch, ox_copy_to_device,
 * ox_event_record) use. */
typedef struct {
	void *handle;                 /* CUstream, or the emulator's */
} OxStream;

/* oxrt.c: setup */
int ox_init(void);
void ox_shutdown(void);
int ox_device_name(char *buf, int len);
/* An attribute of the device that runs the process's modules (the
 * backend of the first module loaded; cuDeviceGetAttribute,
 * CUdevice_attribute values). The emulator reports 1 multiprocessor (it
 * runs one cluster at a time) and no other attribute
 * (CUDA_ERROR_INVALID_VALUE). */
enum {
	OX_DEV_MULTIPROCESSOR_COUNT = 16,
};
int ox_device_attribute(int *value, int attrib);

/* oxrt.c: several devices. One device is current for the process (device
 * 0 after ox_init): modules load, memory is allocated, streams and events
 * are made and kernels launch on it; a kernel launches only while its
 * module's device is current (else CUDA_ERROR_INVALID_CONTEXT, naming
 * both). ox_device_select makes another current (the driver: the
 * device's primary context, retained once, cuCtxSetCurrent on the calling
 * thread; select and use a device from one thread at a time). Pointers
 * are unified (UVA): ox_copy_to_device and ox_copy_from_device take any
 * device's memory. ox_device_count counts the process's backend's devices
 * (cuDeviceGetCount); load a module first, or it counts the GPU's when
 * there is one. ox_peer_enable lets kernels of the current device read and
 * write peer's memory (cuCtxEnablePeerAccess; enabling it twice is no
 * error, and a pair the hardware cannot link is CUDA_ERROR_PEER_ACCESS_
 * UNSUPPORTED); ox_copy_peer copies between two devices' memory
 * (cuMemcpyPeer: peer access not needed). Emulated: OX_EMU_DEVICES
 * devices (1 to 64, default 1), all in host memory; ox_copy_peer checks
 * that each range lies in one allocation of the device it names. */
int ox_device_count(int *n);
int ox_device_select(int ordinal);
int ox_device_current(void);
int ox_peer_enable(int peer);
int ox_copy_peer(OxDevPtr dst, int dst_device, OxDevPtr src, int src_device,
                 size_t bytes);

/* oxrt.c: modules and kernels (.ptx is JIT-compiled, .cubin loaded as is,
 * .so run by emulation) */
int ox_module_load(OxModule *m, const char *path);
void ox_module_unload(OxModule *m);
int ox_function(OxFunc *f, const OxModule *m, const char *name);
/* A kernel's attribute (cuFuncGetAttribute; CUfunction_attribute values):
 * e.g. the most threads per block its launch bounds allow. GPU only, but
 * for the cluster shape of #[kernel(cluster(..))] (0s without one), which
 * an emulated module reports too; else it reports
 * CUDA_ERROR_INVALID_VALUE. */
enum {
	OX_FUNC_MAX_THREADS_PER_BLOCK = 0,
	OX_FUNC_LOCAL_SIZE_BYTES = 3,     /* the kernel's stack frame per thread */
	OX_FUNC_NUM_REGS = 4,
	OX_FUNC_REQUIRED_CLUSTER_WIDTH = 11,
	OX_FUNC_REQUIRED_CLUSTER_HEIGHT = 12,
	OX_FUNC_REQUIRED_CLUSTER_DEPTH = 13,
};
int ox_func_attribute(int *value, int attrib, const OxFunc *f);
/* Lets launches of f use up to `bytes` of dynamic shared memory (above the
 * 48 KiB a launch gets without asking; cuFuncSetAttribute
 * MAX_DYNAMIC_SHARED_SIZE_BYTES). Emulated: nothing to do. */
int ox_func_set_max_dynamic_shared(const OxFunc *f, unsigned bytes);

/* A TMA tensor map (CUDA's CUtensorMap): 128 opaque bytes that kernels of
 * f's module read to copy boxes of a tensor with oxide_device::hopper's
 * tma_load_Nd / tma_store_Nd. Pass it by value: a kernel parameter
 * `map: TensorMap` takes the 128 bytes themselves (args[i] = &map, a
 * grid constant; nothing to copy to device memory); a kernel that takes
 * a `*const TensorMap` instead reads it from device memory (copy it there
 * with ox_copy_to_device, 128-byte aligned, as CUDA 13's CUtensorMap: TMA
 * stores fault on a map only 64-byte aligned). ox_tensor_map_encode fills it
 * from the description (cuTensorMapEncodeTiled on the GPU; the emulator
 * writes its own encoding of the same description). */
typedef struct {
	_Alignas(128) unsigned char bytes[128];
} OxTensorMap;
typedef struct {
	OxDevPtr global;              /* the tensor's first element, 16-byte aligned */
	unsigned rank;                /* 1 .. 5 */
	unsigned elem_bytes;          /* 1, 2, 4 or 8 */
	uint64_t dims[5];             /* elements per dimension, innermost first */
	uint64_t strides[5];          /* bytes from one index of dimension i + 1 to the
	                                 next (rank - 1 of them), multiples of 16 */
	uint32_t box[5];              /* the box a copy moves, elements per dimension
	                                 (<= 256; box[0] * elem_bytes a multiple of 16) */
	unsigned swizzle;             /* shared-memory swizzle: 0, 32, 64 or 128 (bytes) */
} OxTensorMapDesc;
int ox_tensor_map_encode(OxTensorMap *map, const OxFunc *f, const OxTensorMapDesc *d);
/* A global of the module by name, e.g. a Constant<T> static (constant
 * memory): its device address and size (either may be NULL); set it with
 * ox_copy_to_device before a launch. cuModuleGetGlobal; emulated: dlsym. */
int ox_module_global(const OxModule *m, const char *name, OxDevPtr *ptr,
                     size_t *size);

/* oxrt.c: device memory */
int ox_alloc(OxDevPtr *p, size_t bytes);
int ox_free(OxDevPtr p);
int ox_copy_to_device(OxDevPtr dst, const void *src, size_t bytes);
int ox_copy_from_device(void *dst, OxDevPtr src, size_t bytes);
int ox_memset8(OxDevPtr p, unsigned char value, size_t bytes);
int ox_memset32(OxDevPtr p, uint32_t value, size_t count);

/* oxrt.c: page-locked ("pinned") host memory (cuMemHostAlloc,
 * cuMemFreeHost), which asynchronous copies need to overlap with other
 * work (from pageable memory the driver copies synchronously). Emulated:
 * plain host memory (malloc). */
int ox_host_alloc(void **p, size_t bytes);
int ox_host_free(void *p);

/* oxrt.c: streams. ox_stream_create makes a stream (cuStreamCreate, flags
 * 0: it also waits for the default stream, as CUDA's legacy default
 * stream orders); ox_stream_synchronize waits for its work and reports a
 * failure of it (a trap: ox_error_is_trap); ox_stream_destroy releases it
 * (work still on it completes). The async copies return at once on a GPU;
 * the host memory must stay valid (and, for copies from the device,
 * unread) until the stream is synchronized. Emulated, work on a stream
 * runs when it is issued: a valid order of the stream's semantics (issue
 * order within a stream, any overlap across streams). */
int ox_stream_create(OxStream *s);
int ox_stream_destroy(OxStream *s);
int ox_stream_synchronize(const OxStream *s);
int ox_copy_to_device_async(OxDevPtr dst, const void *src, size_t bytes,
                            const OxStream *s);
int ox_copy_from_device_async(void *dst, OxDevPtr src, size_t bytes,
                              const OxStream *s);

/* oxrt.c: launches. args[i] points at the value of the kernel's i-th PTX
 * parameter (a slice is two: &data_ptr, &len). ox_launch is asynchronous;
 * ox_launch_sync also waits and blames a failure on the kernel. Emulated,
 * ox_launch runs the whole grid before it returns, and a trap is reported
 * by the next ox_synchronize, ox_launch_sync, ox_copy_from_device or
 * ox_event_elapsed_ms, as CUDA_ERROR_LAUNCH_FAILED (ox_error_is_trap). */
OxDim3 ox_dim(unsigned x, unsigned y, unsigned z);
unsigned ox_blocks_for(size_t n, unsigned block);
int ox_launch(const OxFunc *f, OxDim3 grid, OxDim3 block,
              unsigned shared_bytes, void **args);
int ox_launch_sync(const OxFunc *f, OxDim3 grid, OxDim3 block,
                   unsigned shared_bytes, void **args);
/* A launch in thread-block clusters of `cluster` blocks (sm_90+; at most
 * 8 blocks; the grid a whole number of them): cuLaunchKernelEx with
 * CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, for any kernel. A kernel with
 * #[kernel(cluster(..))] (PTX .reqnctapercluster) is launched in its
 * clusters by ox_launch too; given another shape here, the launch fails
 * with CUDA_ERROR_INVALID_CLUSTER_SIZE. Emulated, a cluster's blocks run
 * together (barrier.cluster, each other's shared memory). */
int ox_launch_cluster(const OxFunc *f, OxDim3 grid, OxDim3 block,
                      OxDim3 cluster, unsigned shared_bytes, void **args);
/* The same launches on stream s (NULL: the default stream):
 * cuLaunchKernel's hStream, cuLaunchKernelEx's config.hStream. */
int ox_launch_on(const OxFunc *f, OxDim3 grid, OxDim3 block,
                 unsigned shared_bytes, const OxStream *s, void **args);
int ox_launch_cluster_on(const OxFunc *f, OxDim3 grid, OxDim3 block,
                         OxDim3 cluster, unsigned shared_bytes,
                         const OxStream *s, void **args);
int ox_synchronize(void);
/* A cooperative launch: every block of the grid resident on the GPU at
 * once, so that kernels may call oxide_device::grid::sync()
 * (cuLaunchCooperativeKernel). A grid larger than can be co-resident
 * (cuOccupancyMaxActiveBlocksPerMultiprocessor for this block and shared
 * memory, times the multiprocessors) fails with
 * CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, saying how many fit.
 * Cooperative launches of one module's kernels must not overlap (they
 * share the module's grid barrier word, __oxide_grid_barrier). Emulated,
 * the grid's blocks run together (at most 1,024 of them); a kernel with
 * #[kernel(cluster(..))] is refused (CUDA_ERROR_NOT_SUPPORTED), and a
 * grid::sync() in a launch that is not cooperative, or one that cannot
 * complete, fails the launch as a hang. */
int ox_launch_cooperative(const OxFunc *f, OxDim3 grid, OxDim3 block,
                          unsigned shared_bytes, void **args);
/* The same on stream s (NULL: the default stream). */
int ox_launch_cooperative_on(const OxFunc *f, OxDim3 grid, OxDim3 block,
                             unsigned shared_bytes, const OxStream *s,
                             void **args);

/* oxrt.c: the stack of each GPU thread (CU_LIMIT_STACK_SIZE, 1,024 bytes
 * unless raised). ox_module_load raises it to the largest stack frame of
 * the module's kernels (cuFuncGetAttribute LOCAL_SIZE_BYTES), and the
 * driver grows it at launch for a kernel's static need; neither knows how
 * deep a recursion goes. oxidec warns about recursive kernels with the
 * bytes each level needs ("each level needs N bytes"; its note gives the
 * kernel's base B): call ox_set_stack_size(B + N * depth) before their
 * launch, or the launch may fail with CUDA_ERROR_ILLEGAL_ADDRESS (stack
 * overflow). The limit stays until changed; each thread of the whole GPU
 * gets that much, so raise it no higher than needed. Emulated: the value
 * is kept and reported back; each thread's fiber stack is at least that
 * large and never under 256 KiB (host frames are not the GPU's, so an
 * emulated run does not overflow where the GPU would). */
int ox_set_stack_size(size_t bytes);
int ox_stack_size(size_t *bytes);

/* oxrt.c: timing with events; ox_event_record records on the default
 * stream, ox_event_record_on on stream s (NULL: the default one) */
int ox_event_create(OxEvent *e);
int ox_event_record(OxEvent *e);
int ox_event_record_on(OxEvent *e, const OxStream *s);
int ox_event_elapsed_ms(float *ms, OxEvent *start, OxEvent *end);
void ox_event_destroy(OxEvent *e);

/* oxrt.c: errors */
const char *ox_error(void);
int ox_error_code(void);
const char *ox_error_name(void);
int ox_error_is_trap(void);
_Noreturn void ox_die(const char *what, const char *file, int line);

/* Exit with a message when an ox_ call fails. */
#define OX_CHECK(call) \
	do { if ((call) != 0) ox_die(#call, __FILE__, __LINE__); } while (0)

#endif
