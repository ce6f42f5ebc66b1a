/* oxbackend.h: the interface between oxrt.c, which implements oxrt.h's
 * API, and the backends that serve it (internal to src/runtime/).
 *
 * A backend is a table of hooks, one per operation of the API, like a
 * target of QBE. Two exist: the CUDA driver (oxcuda.c) and the host
 * emulator (oxemu.c), which runs the kernels of `oxidec --target=host`
 * modules on the CPU. oxrt.c picks the backend of a module once, when
 * ox_module_load sees what the file is, and stores it in the module and
 * in its kernels' handles; calls that name no module (memory, events,
 * synchronization, streams, pinned memory, the stack limit) go to the
 * process's backend, the one
 * of the first module loaded (see oxrt.c). A backend never calls another,
 * nor oxrt.c except for the error state below. */
#ifndef OXBACKEND_H
#define OXBACKEND_H

#include "oxrt.h"

/* Every hook returns 0 on success, or -1 after oxrt_set_error. */
typedef struct OxBackend {
	const char *name;             /* "the GPU": in messages */
	const char *device;           /* what ox_synchronize waits for */
	/* when open failed: ox_module_load says "absent: open's error" and
	 * appends absent_hint */
	const char *absent, *absent_hint;

	int (*open)(void);            /* ox_init: may fail (no driver) */
	void (*close)(void);          /* ox_shutdown of an open backend */
	int (*device_name)(char *buf, int len);
	int (*device_attribute)(int *value, int attrib);

	/* modules and kernels: OxModule.handle and OxFunc.handle are the
	 * backend's; path and name are set by the caller and by function */
	int (*module_load)(OxModule *m, const char *path);
	void (*module_unload)(OxModule *m);
	int (*function)(OxFunc *f, const OxModule *m, const char *name);
	int (*func_attribute)(int *value, int attrib, const OxFunc *f);
	int (*func_set_max_dynamic_shared)(const OxFunc *f, unsigned bytes);
	int (*tensor_map_encode)(OxTensorMap *map, const OxTensorMapDesc *d);
	int (*module_global)(const OxModule *m, const char *name,
	                     OxDevPtr *ptr, size_t *size);

	int (*mem_alloc)(OxDevPtr *p, size_t bytes);
	int (*mem_free)(OxDevPtr p);
	int (*copy_to_device)(OxDevPtr dst, const void *src, size_t bytes);
	int (*copy_from_device)(void *dst, OxDevPtr src, size_t bytes);
	int (*memset8)(OxDevPtr p, unsigned char value, size_t bytes);
	int (*memset32)(OxDevPtr p, uint32_t value, size_t count);
	/* page-locked host memory (cuMemHostAlloc / cuMemFreeHost) */
	int (*host_alloc)(void **p, size_t bytes);
	int (*host_free)(void *p);

	/* streams: a handle of the backend's; NULL in a hook's stream
	 * argument is the default stream */
	int (*stream_create)(void **stream);
	int (*stream_destroy)(void *stream);
	int (*stream_synchronize)(void *stream);
	int (*copy_to_device_async)(OxDevPtr dst, const void *src, size_t bytes, void *stream);
	int (*copy_from_device_async)(void *dst, OxDevPtr src, size_t bytes, void *stream);

	/* cluster: blocks per cluster, 0s: none given (ox_launch) */
	int (*launch)(const OxFunc *f, OxDim3 grid, OxDim3 block, OxDim3 cluster,
	              unsigned shared_bytes, void *stream, void **args);
	/* waits for the launches; a failure is blamed on call(what) */
	int (*synchronize)(const char *call, const char *what);
	int (*set_stack_size)(size_t bytes);
	int (*stack_size)(size_t *bytes);

	int (*event_create)(OxEvent *e);
	int (*event_record)(OxEvent *e, void *stream);
	int (*event_elapsed_ms)(float *ms, OxEvent *start, OxEvent *end);
	void (*event_destroy)(OxEvent *e);

	/* the CUDA name of an error code, NULL when the backend cannot say */
	const char *(*error_name)(int code);

	/* a cooperative launch (ox_launch_cooperative): all blocks resident
	 * at once, or refused with COOPERATIVE_LAUNCH_TOO_LARGE */
	int (*launch_cooperative)(const OxFunc *f, OxDim3 grid, OxDim3 block, unsigned shared_bytes,
	                          void *stream, void **args);

	/* several devices (oxrt.h): oxrt.c keeps which is current and tells
	 * the backend through device_select before it uses the backend */
	int (*device_count)(int *n);
	int (*device_select)(int ordinal);
	int (*peer_enable)(int peer);
	int (*copy_peer)(OxDevPtr dst, int dst_device, OxDevPtr src, int src_device, size_t bytes);
} OxBackend;

extern const OxBackend oxcuda_backend;   /* oxcuda.c */
extern const OxBackend oxemu_backend;    /* oxemu_backend.c */

/* CUDA error codes (the driver's values) that the runtime reports or
 * reads: the emulator reports them as the driver would, oxrt.c tells a
 * trap by them. */
enum {
	OX_CUDA_INVALID_VALUE = 1,
	OX_CUDA_OUT_OF_MEMORY = 2,
	OX_CUDA_INVALID_DEVICE = 101,
	OX_CUDA_INVALID_IMAGE = 200,
	OX_CUDA_INVALID_CONTEXT = 201,
	OX_CUDA_NOT_FOUND = 500,
	OX_CUDA_ILLEGAL_ADDRESS = 700,
	OX_CUDA_PEER_ACCESS_UNSUPPORTED = 217,
	OX_CUDA_PEER_ACCESS_ALREADY_ENABLED = 704,
	OX_CUDA_ASSERT = 710,
	OX_CUDA_COOPERATIVE_LAUNCH_TOO_LARGE = 720,
	OX_CUDA_ILLEGAL_INSTRUCTION = 715,
	OX_CUDA_LAUNCH_FAILED = 719,
	OX_CUDA_NOT_SUPPORTED = 801,
	OX_CUDA_INVALID_CLUSTER_SIZE = 912,
};

/* oxrt.c: the error state behind ox_error() and ox_error_code(); set
 * returns -1 */
__attribute__((format(printf, 2, 3)))
int oxrt_set_error(int code, const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
void oxrt_append_error(const char *fmt, ...);

#endif
