/* oxcuda.c: the CUDA driver backend of oxrt (oxbackend.h): modules
 * (.ptx JIT-compiled, .cubin loaded as is), kernels, device memory,
 * pinned host memory, streams, launches, events and the stack limit of
 * device 0's primary context. A stream argument of NULL is the default
 * stream (CUstream 0), as in the driver API.
 *
 * The driver is opened with dlopen and its entry points are bound by
 * name (the _v2 names where the driver exports them), so only the few
 * driver types below are declared here, ABI-compatible with cuda.h. Each
 * driver call goes through cu_check, which turns a failure into one
 * readable message: the call, the module or kernel, the CUDA error name and
 * text, and a hint for the errors a kernel author meets (traps, JIT logs,
 * missing kernel names).
 *
 * The stack: CUDA gives every thread a stack of CU_LIMIT_STACK_SIZE bytes
 * (1,024 by default) and grows it at launch for what a kernel needs
 * statically; a recursive kernel's need depends on its data, which no one
 * but the program knows.  Loading a module raises the limit to the largest
 * local size of the module's kernels (best effort); ox_set_stack_size
 * raises it further, by the figures of oxidec's recursion warning. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "oxbackend.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef int CUjit_option;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;

enum {
	CUDA_SUCCESS = 0,
	CU_JIT_INFO_LOG_BUFFER = 3,
	CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
	CU_JIT_GENERATE_LINE_INFO = 13,
	CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
	CU_LIMIT_STACK_SIZE = 0,
	CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
};

/* cuda.h's CUlaunchAttribute (an id, padding to 8 bytes, a 64-byte value
 * union whose clusterDim is three unsigned ints) and CUlaunchConfig */
typedef struct {
	int id;
	char pad[4];
	union {
		char bytes[64];
		unsigned cluster_dim[3];
	} value;
} CUlaunchAttribute;
typedef struct {
	unsigned grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes;
	CUstream stream;
	CUlaunchAttribute *attrs;
	unsigned nattrs;
} CUlaunchConfig;
_Static_assert(sizeof(CUlaunchAttribute) == 72, "CUlaunchAttribute as in cuda.h");
_Static_assert(sizeof(CUlaunchConfig) == 56, "CUlaunchConfig as in cuda.h");

enum { CUDA_MAX_DEVICES = 64 };

static struct {
	void *lib;
	CUdevice dev;                 /* the current device's (devs[cur]) */
	CUcontext ctx;                /* its primary context (ctxs[cur]) */
	/* the primary contexts retained, by ordinal (ox_device_select) */
	CUdevice devs[CUDA_MAX_DEVICES];
	CUcontext ctxs[CUDA_MAX_DEVICES];
	int cur;
	CUresult (*init)(unsigned);
	CUresult (*device_get)(CUdevice *, int);
	CUresult (*device_get_name)(char *, int, CUdevice);
	CUresult (*device_get_attribute)(int *, int, CUdevice);
	CUresult (*primary_retain)(CUcontext *, CUdevice);
	CUresult (*primary_release)(CUdevice);
	CUresult (*ctx_set_current)(CUcontext);
	CUresult (*ctx_synchronize)(void);
	CUresult (*ctx_set_limit)(int, size_t);
	CUresult (*ctx_get_limit)(size_t *, int);
	CUresult (*module_load)(CUmodule *, const void *, unsigned,
	                        CUjit_option *, void **);
	CUresult (*module_unload)(CUmodule);
	CUresult (*module_get_function)(CUfunction *, CUmodule, const char *);
	CUresult (*module_get_global)(CUdeviceptr *, size_t *, CUmodule,
	                              const char *);
	CUresult (*module_function_count)(unsigned *, CUmodule);
	CUresult (*module_enumerate)(CUfunction *, unsigned, CUmodule);
	CUresult (*func_get_name)(const char **, CUfunction);
	CUresult (*func_get_attribute)(int *, int, CUfunction);
	CUresult (*func_set_attribute)(CUfunction, int, int);
	CUresult (*tensor_map_encode_tiled)(void *, int, unsigned, void *, const uint64_t *, const uint64_t *,
	                                    const uint32_t *, const uint32_t *, int, int, int, int);
	CUresult (*mem_alloc)(CUdeviceptr *, size_t);
	CUresult (*mem_free)(CUdeviceptr);
	CUresult (*copy_htod)(CUdeviceptr, const void *, size_t);
	CUresult (*copy_dtoh)(void *, CUdeviceptr, size_t);
	CUresult (*memset_d8)(CUdeviceptr, unsigned char, size_t);
	CUresult (*memset_d32)(CUdeviceptr, unsigned, size_t);
	CUresult (*host_alloc)(void **, size_t, unsigned);
	CUresult (*host_free)(void *);
	CUresult (*stream_create)(CUstream *, unsigned);
	CUresult (*stream_synchronize)(CUstream);
	CUresult (*stream_destroy)(CUstream);
	CUresult (*copy_htod_async)(CUdeviceptr, const void *, size_t, CUstream);
	CUresult (*copy_dtoh_async)(void *, CUdeviceptr, size_t, CUstream);
	CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned,
	                   unsigned, unsigned, unsigned, CUstream, void **,
	                   void **);
	CUresult (*launch_ex)(const CUlaunchConfig *, CUfunction, void **, void **);
	CUresult (*event_create)(CUevent *, unsigned);
	CUresult (*event_record)(CUevent, CUstream);
	CUresult (*event_synchronize)(CUevent);
	CUresult (*event_elapsed)(float *, CUevent, CUevent);
	CUresult (*event_destroy)(CUevent);
	CUresult (*error_name)(CUresult, const char **);
	CUresult (*error_string)(CUresult, const char **);
	/* cooperative launches (ox_launch_cooperative) */
	CUresult (*launch_coop)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
	                        CUstream, void **);
	CUresult (*occupancy)(int *, CUfunction, int, size_t);
	/* several devices (ox_device_count, ox_peer_enable, ox_copy_peer) */
	CUresult (*device_get_count)(int *);
	CUresult (*can_access_peer)(int *, CUdevice, CUdevice);
	CUresult (*enable_peer)(CUcontext, unsigned);
	CUresult (*copy_peer)(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t);
} drv;

_Static_assert(sizeof drv.init == sizeof(void *),
               "dlsym results are stored into function pointers");

/* name, fallback name (older drivers), optional (newer drivers only) */
static const struct {
	void *slot;
	const char *name, *fallback;
	int optional;
} syms[] = {
	{&drv.init, "cuInit", NULL, 0},
	{&drv.device_get, "cuDeviceGet", NULL, 0},
	{&drv.device_get_name, "cuDeviceGetName", NULL, 0},
	{&drv.device_get_attribute, "cuDeviceGetAttribute", NULL, 0},
	{&drv.primary_retain, "cuDevicePrimaryCtxRetain", NULL, 0},
	{&drv.primary_release, "cuDevicePrimaryCtxRelease_v2",
	 "cuDevicePrimaryCtxRelease", 0},
	{&drv.ctx_set_current, "cuCtxSetCurrent", NULL, 0},
	{&drv.ctx_synchronize, "cuCtxSynchronize", NULL, 0},
	{&drv.ctx_set_limit, "cuCtxSetLimit", NULL, 0},
	{&drv.ctx_get_limit, "cuCtxGetLimit", NULL, 0},
	{&drv.module_load, "cuModuleLoadDataEx", NULL, 0},
	{&drv.module_unload, "cuModuleUnload", NULL, 0},
	{&drv.module_get_function, "cuModuleGetFunction", NULL, 0},
	{&drv.module_get_global, "cuModuleGetGlobal_v2", NULL, 0},
	{&drv.module_function_count, "cuModuleGetFunctionCount", NULL, 1},
	{&drv.module_enumerate, "cuModuleEnumerateFunctions", NULL, 1},
	{&drv.func_get_name, "cuFuncGetName", NULL, 1},
	{&drv.func_get_attribute, "cuFuncGetAttribute", NULL, 0},
	{&drv.func_set_attribute, "cuFuncSetAttribute", NULL, 1},
	{&drv.tensor_map_encode_tiled, "cuTensorMapEncodeTiled", NULL, 1},
	{&drv.mem_alloc, "cuMemAlloc_v2", NULL, 0},
	{&drv.mem_free, "cuMemFree_v2", NULL, 0},
	{&drv.copy_htod, "cuMemcpyHtoD_v2", NULL, 0},
	{&drv.copy_dtoh, "cuMemcpyDtoH_v2", NULL, 0},
	{&drv.memset_d8, "cuMemsetD8_v2", NULL, 0},
	{&drv.memset_d32, "cuMemsetD32_v2", NULL, 0},
	{&drv.host_alloc, "cuMemHostAlloc", NULL, 0},
	{&drv.host_free, "cuMemFreeHost", NULL, 0},
	{&drv.stream_create, "cuStreamCreate", NULL, 0},
	{&drv.stream_synchronize, "cuStreamSynchronize", NULL, 0},
	{&drv.stream_destroy, "cuStreamDestroy_v2", "cuStreamDestroy", 0},
	{&drv.copy_htod_async, "cuMemcpyHtoDAsync_v2", NULL, 0},
	{&drv.copy_dtoh_async, "cuMemcpyDtoHAsync_v2", NULL, 0},
	{&drv.launch, "cuLaunchKernel", NULL, 0},
	{&drv.launch_ex, "cuLaunchKernelEx", NULL, 1},
	{&drv.event_create, "cuEventCreate", NULL, 0},
	{&drv.event_record, "cuEventRecord", NULL, 0},
	{&drv.event_synchronize, "cuEventSynchronize", NULL, 0},
	{&drv.event_elapsed, "cuEventElapsedTime_v2", "cuEventElapsedTime", 0},
	{&drv.event_destroy, "cuEventDestroy_v2", NULL, 0},
	{&drv.error_name, "cuGetErrorName", NULL, 0},
	{&drv.error_string, "cuGetErrorString", NULL, 0},
	{&drv.launch_coop, "cuLaunchCooperativeKernel", NULL, 1},
	{&drv.occupancy, "cuOccupancyMaxActiveBlocksPerMultiprocessor", NULL, 1},
	{&drv.device_get_count, "cuDeviceGetCount", NULL, 1},
	{&drv.can_access_peer, "cuDeviceCanAccessPeer", NULL, 1},
	{&drv.enable_peer, "cuCtxEnablePeerAccess", NULL, 1},
	{&drv.copy_peer, "cuMemcpyPeer", NULL, 1},
};

/* What a kernel author should conclude from a failed launch or sync. */
static const char *error_hint(CUresult r)
{
	switch (r) {
	case OX_CUDA_ILLEGAL_INSTRUCTION:
		return "the kernel trapped: a Rust panic (a failed bounds check, "
		       "unwrap, overflow check...) lowers to PTX trap; the CUDA "
		       "context is now unusable";
	case OX_CUDA_LAUNCH_FAILED:
		return "the kernel failed while running, most likely it trapped "
		       "(a Rust panic); the CUDA context is now unusable";
	case OX_CUDA_ASSERT:
		return "a device-side assert fired; the CUDA context is now "
		       "unusable";
	case OX_CUDA_ILLEGAL_ADDRESS:
		return "the kernel accessed invalid memory: a bad pointer, or "
		       "arguments that do not match the kernel's PTX parameters";
	default:
		return NULL;
	}
}

/* 0 on success; else records "call(what): NAME: text" and returns -1. */
static int cu_check(CUresult r, const char *call, const char *what)
{
	const char *name = NULL, *text = NULL;
	const char *hint = error_hint(r);

	if (r == CUDA_SUCCESS)
		return 0;
	if (drv.error_name == NULL || drv.error_name(r, &name) != CUDA_SUCCESS)
		name = "CUDA_ERROR_UNKNOWN_CODE";
	if (drv.error_string == NULL ||
	    drv.error_string(r, &text) != CUDA_SUCCESS)
		text = "no description";
	oxrt_set_error(r, "%s(%s): %s (%d): %s", call, what, name, r, text);
	if (hint != NULL)
		oxrt_append_error("\n  %s", hint);
	return -1;
}

static int bind_symbols(void)
{
	for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
		void *sym = dlsym(drv.lib, syms[i].name);

		if (sym == NULL && syms[i].fallback != NULL)
			sym = dlsym(drv.lib, syms[i].fallback);
		if (sym == NULL && !syms[i].optional)
			return oxrt_set_error(-1, "libcuda.so.1 lacks %s: driver too "
			                 "old", syms[i].name);
		memcpy(syms[i].slot, &sym, sizeof sym);
	}
	return 0;
}

static int cuda_open(void)
{
	CUcontext ctx = NULL;

	if (drv.ctx != NULL)
		return 0;
	if (drv.lib == NULL)
		drv.lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (drv.lib == NULL)
		return oxrt_set_error(-1, "dlopen(libcuda.so.1): %s: is the NVIDIA "
		                 "driver installed on this machine?", dlerror());
	if (bind_symbols() != 0 ||
	    cu_check(drv.init(0), "cuInit", "0") != 0 ||
	    cu_check(drv.device_get(&drv.dev, 0), "cuDeviceGet", "0") != 0 ||
	    cu_check(drv.primary_retain(&ctx, drv.dev),
	             "cuDevicePrimaryCtxRetain", "device 0") != 0 ||
	    cu_check(drv.ctx_set_current(ctx), "cuCtxSetCurrent",
	             "device 0") != 0)
		return -1;
	drv.ctx = drv.ctxs[0] = ctx;
	drv.devs[0] = drv.dev;
	drv.cur = 0;
	return 0;
}

static int need_ctx(const char *call);

static int cuda_device_count(int *n)
{
	if (drv.device_get_count == NULL)
		return oxrt_set_error(OX_CUDA_NOT_SUPPORTED, "ox_device_count: libcuda.so.1 lacks cuDeviceGetCount");
	return cu_check(drv.device_get_count(n), "cuDeviceGetCount", "");
}

/* The primary context of device d, retained on first use. */
static int retain(int d, const char *call)
{
	char what[48];
	int n = 0;

	snprintf(what, sizeof what, "device %d", d);
	if (d >= 0 && d < CUDA_MAX_DEVICES && drv.ctxs[d] != NULL)
		return 0;
	if (cuda_device_count(&n) != 0)
		return -1;
	if (d < 0 || d >= n || d >= CUDA_MAX_DEVICES)
		return oxrt_set_error(OX_CUDA_INVALID_DEVICE, "%s(%d): CUDA_ERROR_INVALID_DEVICE: the machine has %d "
		                      "device%s", call, d, n, n == 1 ? "" : "s");
	return cu_check(drv.device_get(&drv.devs[d], d), "cuDeviceGet", what) != 0 ||
	       cu_check(drv.primary_retain(&drv.ctxs[d], drv.devs[d]), "cuDevicePrimaryCtxRetain", what) != 0
	       ? -1 : 0;
}

static int cuda_device_select(int d)
{
	char what[48];

	snprintf(what, sizeof what, "device %d", d);
	if (need_ctx("ox_device_select") != 0 || retain(d, "ox_device_select") != 0 ||
	    cu_check(drv.ctx_set_current(drv.ctxs[d]), "cuCtxSetCurrent", what) != 0)
		return -1;
	drv.cur = d;
	drv.dev = drv.devs[d];
	drv.ctx = drv.ctxs[d];
	return 0;
}

/* Access to peer's memory from the current device's kernels. */
static int cuda_peer_enable(int peer)
{
	char what[64];
	int can = 0;
	CUresult r;

	snprintf(what, sizeof what, "device %d to device %d", drv.cur, peer);
	if (drv.can_access_peer == NULL || drv.enable_peer == NULL)
		return oxrt_set_error(OX_CUDA_NOT_SUPPORTED, "ox_peer_enable: libcuda.so.1 lacks "
		                      "cuDeviceCanAccessPeer or cuCtxEnablePeerAccess");
	if (retain(peer, "ox_peer_enable") != 0)
		return -1;
	if (peer == drv.cur)
		return oxrt_set_error(OX_CUDA_INVALID_DEVICE, "ox_peer_enable(%d): CUDA_ERROR_INVALID_DEVICE: "
		                      "device %d is the current device", peer, peer);
	if (cu_check(drv.can_access_peer(&can, drv.dev, drv.devs[peer]), "cuDeviceCanAccessPeer", what) != 0)
		return -1;
	if (!can)
		return oxrt_set_error(OX_CUDA_PEER_ACCESS_UNSUPPORTED, "ox_peer_enable(%d): "
		                      "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED: device %d cannot access device %d's memory "
		                      "(cuDeviceCanAccessPeer)", peer, drv.cur, peer);
	r = drv.enable_peer(drv.ctxs[peer], 0);
	return r == OX_CUDA_PEER_ACCESS_ALREADY_ENABLED ? 0 : cu_check(r, "cuCtxEnablePeerAccess", what);
}

static int cuda_copy_peer(OxDevPtr dst, int dst_device, OxDevPtr src, int src_device, size_t bytes)
{
	char what[80];

	snprintf(what, sizeof what, "%zu bytes, device %d to device %d", bytes, src_device, dst_device);
	if (drv.copy_peer == NULL)
		return oxrt_set_error(OX_CUDA_NOT_SUPPORTED, "ox_copy_peer: libcuda.so.1 lacks cuMemcpyPeer");
	if (retain(dst_device, "ox_copy_peer") != 0 || retain(src_device, "ox_copy_peer") != 0)
		return -1;
	return cu_check(drv.copy_peer(dst, drv.ctxs[dst_device], src, drv.ctxs[src_device], bytes),
	                "cuMemcpyPeer", what);
}

/* The whole file plus a NUL, which PTX text needs and cubin ignores. */
static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long end;
	size_t size;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (end = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size = (size_t)end) + 1)) != NULL) {
		if (fread(buf, 1, size, f) != size) {
			free(buf);
			buf = NULL;
		} else {
			buf[size] = '\0';
		}
	}
	fclose(f);
	return buf;
}

/* Up to cap functions of a module (cuModuleEnumerateFunctions, CUDA 12.4
 * drivers and later); 0 when the driver cannot list them. */
static unsigned module_functions(CUmodule mod, CUfunction *fns, unsigned cap)
{
	unsigned n = 0;
	if (drv.module_function_count == NULL || drv.module_enumerate == NULL ||
	    drv.module_function_count(&n, mod) != CUDA_SUCCESS)
		return 0;
	if (n > cap)
		n = cap;
	return drv.module_enumerate(fns, n, mod) == CUDA_SUCCESS ? n : 0;
}

/* Raises the stack limit to the largest local size (stack frame) of the
 * module's kernels.  Best effort, errors ignored: the driver also grows
 * the stack at launch for a kernel's static need, and drivers before
 * CUDA 12.4 cannot list a module's kernels.  Recursion is not covered:
 * its depth is the program's to know (ox_set_stack_size). */
static void fit_stack(CUmodule mod)
{
	CUfunction fns[256];
	size_t limit = 0;
	int need = 0, local;
	unsigned n = module_functions(mod, fns, 256);
	for (unsigned i = 0; i < n; i++)
		if (drv.func_get_attribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
		                           fns[i]) == CUDA_SUCCESS && local > need)
			need = local;
	if (drv.ctx_get_limit(&limit, CU_LIMIT_STACK_SIZE) == CUDA_SUCCESS &&
	    (size_t)need > limit)
		(void)drv.ctx_set_limit(CU_LIMIT_STACK_SIZE, (size_t)need);
}

/* After CUDA_ERROR_NOT_FOUND: name the kernels the module does have. */
static void append_kernel_names(CUmodule mod)
{
	CUfunction fns[64];
	const char *name;
	unsigned n = drv.func_get_name ? module_functions(mod, fns, 64) : 0;

	if (n == 0)
		return;
	oxrt_append_error("\n  kernels in this module:");
	for (unsigned i = 0; i < n; i++)
		if (drv.func_get_name(&name, fns[i]) == CUDA_SUCCESS)
			oxrt_append_error(" %s", name);
}

static void cuda_close(void)
{
	for (int d = 0; d < CUDA_MAX_DEVICES; d++)
		if (drv.ctxs[d] != NULL)
			drv.primary_release(drv.devs[d]);
	memset(drv.ctxs, 0, sizeof drv.ctxs);
	drv.ctx = NULL;
	drv.cur = 0;
}

/* A kernel or module call after ox_shutdown (the context is gone). */
static int need_ctx(const char *call)
{
	if (drv.ctx != NULL)
		return 0;
	return oxrt_set_error(-1, "%s: ox_init() was not called or failed", call);
}

static int cuda_device_name(char *buf, int len)
{
	char what[32];

	snprintf(what, sizeof what, "device %d", drv.cur);
	return cu_check(drv.device_get_name(buf, len, drv.dev), "cuDeviceGetName", what);
}

static int cuda_device_attribute(int *value, int attrib)
{
	char what[32];

	snprintf(what, sizeof what, "attribute %d", attrib);
	return cu_check(drv.device_get_attribute(value, attrib, drv.dev), "cuDeviceGetAttribute", what);
}

static int cuda_module_load(OxModule *m, const char *path)
{
	static char jit_err[8192], jit_info[8192];
	/* line information from the PTX's .loc (oxidec's default; -g0 PTX
	 * has none, and a cubin ignores the option): what compute-sanitizer
	 * and the profilers show as the Rust line */
	CUjit_option opt[] = {
		CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
		CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
		CU_JIT_GENERATE_LINE_INFO,
	};
	void *val[] = {
		jit_err, (void *)(uintptr_t)sizeof jit_err,
		jit_info, (void *)(uintptr_t)sizeof jit_info,
		(void *)(uintptr_t)1,
	};
	CUmodule mod = NULL;
	char *image;
	CUresult r;

	if ((image = read_file(path)) == NULL)
		return oxrt_set_error(-1, "cannot read module %s: %s", path,
		                 strerror(errno));
	jit_err[0] = jit_info[0] = '\0';
	r = drv.module_load(&mod, image, sizeof opt / sizeof opt[0], opt, val);
	free(image);
	if (cu_check(r, "cuModuleLoadDataEx", path) != 0) {
		if (jit_err[0] != '\0')
			oxrt_append_error("\n  JIT error log:\n%s", jit_err);
		if (jit_info[0] != '\0')
			oxrt_append_error("\n  JIT info log:\n%s", jit_info);
		return -1;
	}
	m->handle = mod;
	fit_stack(mod);
	return 0;
}

static void cuda_module_unload(OxModule *m)
{
	if (m->handle != NULL && drv.module_unload != NULL)
		drv.module_unload((CUmodule)m->handle);
}

static int cuda_function(OxFunc *f, const OxModule *m, const char *name)
{
	CUfunction fn = NULL;
	CUresult r;

	if (need_ctx("ox_function") != 0)
		return -1;
	r = drv.module_get_function(&fn, (CUmodule)m->handle, name);
	f->handle = fn;
	if (cu_check(r, "cuModuleGetFunction", name) == 0)
		return 0;
	oxrt_append_error("\n  in module %s", m->path);
	if (r == OX_CUDA_NOT_FOUND)
		append_kernel_names((CUmodule)m->handle);
	return -1;
}

static int cuda_func_attribute(int *value, int attrib, const OxFunc *f)
{
	char what[700];

	if (need_ctx("ox_func_attribute") != 0)
		return -1;
	snprintf(what, sizeof what, "%s, attribute %d", f->name, attrib);
	return cu_check(drv.func_get_attribute(value, attrib,
	                                       (CUfunction)f->handle),
	                "cuFuncGetAttribute", what);
}

/* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
static int cuda_func_set_max_dynamic_shared(const OxFunc *f, unsigned bytes)
{
	char what[700];

	if (need_ctx("ox_func_set_max_dynamic_shared") != 0)
		return -1;
	if (drv.func_set_attribute == NULL)
		return oxrt_set_error(OX_CUDA_NOT_SUPPORTED, "ox_func_set_max_dynamic_shared: this driver has no "
		                      "cuFuncSetAttribute");
	snprintf(what, sizeof what, "%s, %u bytes of dynamic shared memory", f->name, bytes);
	return cu_check(drv.func_set_attribute((CUfunction)f->handle, 8, (int)bytes), "cuFuncSetAttribute", what);
}

/* cuTensorMapEncodeTiled: the data type by size (bits are copied, not
 * converted), no interleave, L2 promotion of 128 bytes, no fill. */
static int cuda_tensor_map_encode(OxTensorMap *map, const OxTensorMapDesc *d)
{
	static const int dtype[9] = {[1] = 0, [2] = 1, [4] = 2, [8] = 4};   /* CU_TENSOR_MAP_DATA_TYPE_UINT* */
	uint32_t estride[5] = {1, 1, 1, 1, 1};
	int swizzle = d->swizzle == 128 ? 3 : d->swizzle == 64 ? 2 : d->swizzle == 32 ? 1 : 0;

	if (need_ctx("ox_tensor_map_encode") != 0)
		return -1;
	if (drv.tensor_map_encode_tiled == NULL)
		return oxrt_set_error(OX_CUDA_NOT_SUPPORTED, "ox_tensor_map_encode: this driver has no "
		                      "cuTensorMapEncodeTiled (CUDA 12 or later)");
	return cu_check(drv.tensor_map_encode_tiled(map->bytes, dtype[d->elem_bytes], d->rank,
	                                            (void *)(uintptr_t)d->global, d->dims, d->strides, d->box,
	                                            estride, 0, swizzle, 2, 0),
	                "cuTensorMapEncodeTiled", "ox_tensor_map_encode");
}

static int cuda_module_global(const OxModule *m, const char *name,
                              OxDevPtr *ptr, size_t *size)
{
	CUdeviceptr p = 0;
	size_t n = 0;
	char what[700];

	if (need_ctx("ox_module_global") != 0)
		return -1;
	snprintf(what, sizeof what, "%s in %s", name, m->path);
	if (cu_check(drv.module_get_global(&p, &n, (CUmodule)m->handle, name),
	             "cuModuleGetGlobal", what) != 0)
		return -1;
	if (ptr != NULL)
		*ptr = (OxDevPtr)p;
	if (size != NULL)
		*size = n;
	return 0;
}

static int cuda_mem_alloc(OxDevPtr *p, size_t bytes)
{
	CUdeviceptr d = 0;
	char what[64];

	snprintf(what, sizeof what, "%zu bytes", bytes);
	if (cu_check(drv.mem_alloc(&d, bytes), "cuMemAlloc_v2", what) != 0)
		return -1;
	*p = d;
	return 0;
}

static int cuda_mem_free(OxDevPtr p)
{
	return cu_check(drv.mem_free(p), "cuMemFree_v2", "device buffer");
}

static int cuda_copy_to_device(OxDevPtr dst, const void *src, size_t bytes)
{
	return cu_check(drv.copy_htod(dst, src, bytes), "cuMemcpyHtoD_v2",
	                "host to device");
}

static int cuda_copy_from_device(void *dst, OxDevPtr src, size_t bytes)
{
	return cu_check(drv.copy_dtoh(dst, src, bytes), "cuMemcpyDtoH_v2",
	                "device to host");
}

static int cuda_memset8(OxDevPtr p, unsigned char value, size_t bytes)
{
	return cu_check(drv.memset_d8(p, value, bytes), "cuMemsetD8_v2",
	                "device buffer");
}

static int cuda_memset32(OxDevPtr p, uint32_t value, size_t count)
{
	return cu_check(drv.memset_d32(p, value, count), "cuMemsetD32_v2",
	                "device buffer");
}

/* flags 0: portable; the memory is page-locked, which lets async copies
 * overlap other work */
static int cuda_host_alloc(void **p, size_t bytes)
{
	char what[64];

	snprintf(what, sizeof what, "%zu bytes", bytes);
	return cu_check(drv.host_alloc(p, bytes, 0), "cuMemHostAlloc", what);
}

static int cuda_host_free(void *p)
{
	return cu_check(drv.host_free(p), "cuMemFreeHost", "pinned host buffer");
}

/* flags 0 (CU_STREAM_DEFAULT): synchronizes with the default stream */
static int cuda_stream_create(void **stream)
{
	CUstream st = NULL;

	if (need_ctx("ox_stream_create") != 0 ||
	    cu_check(drv.stream_create(&st, 0), "cuStreamCreate", "flags 0") != 0)
		return -1;
	*stream = st;
	return 0;
}

static int cuda_stream_destroy(void *stream)
{
	return cu_check(drv.stream_destroy((CUstream)stream), "cuStreamDestroy_v2", "stream");
}

static int cuda_stream_synchronize(void *stream)
{
	return cu_check(drv.stream_synchronize((CUstream)stream), "cuStreamSynchronize",
	                stream != NULL ? "stream" : "default stream");
}

static int cuda_copy_to_device_async(OxDevPtr dst, const void *src, size_t bytes, void *stream)
{
	return cu_check(drv.copy_htod_async(dst, src, bytes, (CUstream)stream), "cuMemcpyHtoDAsync_v2",
	                "host to device");
}

static int cuda_copy_from_device_async(void *dst, OxDevPtr src, size_t bytes, void *stream)
{
	return cu_check(drv.copy_dtoh_async(dst, src, bytes, (CUstream)stream), "cuMemcpyDtoHAsync_v2",
	                "device to host");
}

/* cuLaunchKernelEx with CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION. */
static CUresult launch_cluster(const OxFunc *f, OxDim3 grid, OxDim3 block, OxDim3 cluster,
                               unsigned shared_bytes, CUstream stream, void **args)
{
	CUlaunchAttribute attr;
	CUlaunchConfig cfg = {grid.x, grid.y, grid.z, block.x, block.y, block.z, shared_bytes, stream, &attr, 1};

	memset(&attr, 0, sizeof attr);
	attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
	attr.value.cluster_dim[0] = cluster.x;
	attr.value.cluster_dim[1] = cluster.y;
	attr.value.cluster_dim[2] = cluster.z;
	return drv.launch_ex(&cfg, (CUfunction)f->handle, args, NULL);
}

static int cuda_launch(const OxFunc *f, OxDim3 grid, OxDim3 block, OxDim3 cluster,
                       unsigned shared_bytes, void *stream, void **args)
{
	char what[700];
	CUresult r;
	int ex = cluster.x != 0;

	if (need_ctx(ex ? "ox_launch_cluster" : "ox_launch") != 0)
		return -1;
	if (ex && drv.launch_ex == NULL)
		return oxrt_set_error(OX_CUDA_NOT_SUPPORTED, "ox_launch_cluster(%s): libcuda.so.1 lacks "
		                      "cuLaunchKernelEx: driver too old for clusters", f->name);
	if (ex)
		r = launch_cluster(f, grid, block, cluster, shared_bytes, (CUstream)stream, args);
	else
		r = drv.launch((CUfunction)f->handle, grid.x, grid.y, grid.z, block.x,
		               block.y, block.z, shared_bytes, (CUstream)stream, args, NULL);
	snprintf(what, sizeof what, "%s in %s, grid %ux%ux%u, block %ux%ux%u",
	         f->name, f->path, grid.x, grid.y, grid.z, block.x, block.y,
	         block.z);
	if (ex)
		snprintf(what + strlen(what), sizeof what - strlen(what), ", cluster %ux%ux%u",
		         cluster.x, cluster.y, cluster.z);
	return cu_check(r, ex ? "cuLaunchKernelEx" : "cuLaunchKernel", what);
}

/* A failure is the driver's (cuCtxSynchronize), blamed on what. */
static int cuda_synchronize(const char *call, const char *what)
{
	(void)call;
	return cu_check(drv.ctx_synchronize(), "cuCtxSynchronize", what);
}

static int cuda_set_stack_size(size_t bytes)
{
	char what[64];

	snprintf(what, sizeof what, "CU_LIMIT_STACK_SIZE, %zu bytes", bytes);
	return cu_check(drv.ctx_set_limit(CU_LIMIT_STACK_SIZE, bytes),
	                "cuCtxSetLimit", what);
}

static int cuda_stack_size(size_t *bytes)
{
	return cu_check(drv.ctx_get_limit(bytes, CU_LIMIT_STACK_SIZE),
	                "cuCtxGetLimit", "CU_LIMIT_STACK_SIZE");
}

static int cuda_event_create(OxEvent *e)
{
	CUevent ev = NULL;

	if (cu_check(drv.event_create(&ev, 0), "cuEventCreate", "default") != 0)
		return -1;
	e->handle = ev;
	return 0;
}

static int cuda_event_record(OxEvent *e, void *stream)
{
	return cu_check(drv.event_record((CUevent)e->handle, (CUstream)stream),
	                "cuEventRecord", stream != NULL ? "stream" : "default stream");
}

/* Waits for end, then the time between start and end in milliseconds. */
static int cuda_event_elapsed_ms(float *ms, OxEvent *start, OxEvent *end)
{
	if (cu_check(drv.event_synchronize((CUevent)end->handle),
	             "cuEventSynchronize", "end event") != 0)
		return -1;
	return cu_check(drv.event_elapsed(ms, (CUevent)start->handle,
	                                  (CUevent)end->handle),
	                "cuEventElapsedTime", "start, end");
}

static void cuda_event_destroy(OxEvent *e)
{
	if (e->handle != NULL && drv.event_destroy != NULL)
		drv.event_destroy((CUevent)e->handle);
}

/* The driver's name of a code, when a driver was found. */
static const char *cuda_error_name(int code)
{
	const char *name = NULL;

	if (code > 0 && drv.error_name != NULL &&
	    drv.error_name(code, &name) == CUDA_SUCCESS)
		return name;
	return NULL;
}

/* ---- cooperative launches: every block of the grid resident at once
 * (grid::sync()), cuLaunchCooperativeKernel; a grid larger than
 * cuOccupancyMaxActiveBlocksPerMultiprocessor x the multiprocessors is
 * refused here, saying how many fit. ---- */

enum { CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95 };

/* How many blocks of f (block, shared_bytes) fit on the GPU at once. */
static int coop_capacity(unsigned long long *fit, const OxFunc *f, OxDim3 block, unsigned shared_bytes)
{
	int per_sm = 0, sms = 0, coop = 0;
	int threads = (int)(block.x * block.y * block.z);

	if (cu_check(drv.device_get_attribute(&coop, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, drv.dev),
	             "cuDeviceGetAttribute", "CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH") != 0 ||
	    cu_check(drv.device_get_attribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, drv.dev),
	             "cuDeviceGetAttribute", "CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT") != 0 ||
	    cu_check(drv.occupancy(&per_sm, (CUfunction)f->handle, threads, shared_bytes),
	             "cuOccupancyMaxActiveBlocksPerMultiprocessor", f->name) != 0)
		return -1;
	if (!coop)
		return oxrt_set_error(OX_CUDA_NOT_SUPPORTED, "ox_launch_cooperative(%s): CUDA_ERROR_NOT_SUPPORTED: "
		                      "the device cannot launch cooperatively", f->name);
	*fit = (unsigned long long)per_sm * (unsigned long long)sms;
	return 0;
}

static int cuda_launch_cooperative(const OxFunc *f, OxDim3 grid, OxDim3 block, unsigned shared_bytes,
                                   void *stream, void **args)
{
	unsigned long long n = (unsigned long long)grid.x * grid.y * grid.z, fit = 0;
	char what[700];

	if (need_ctx("ox_launch_cooperative") != 0)
		return -1;
	if (drv.launch_coop == NULL || drv.occupancy == NULL)
		return oxrt_set_error(OX_CUDA_NOT_SUPPORTED, "ox_launch_cooperative(%s): libcuda.so.1 lacks "
		                      "cuLaunchCooperativeKernel or cuOccupancyMaxActiveBlocksPerMultiprocessor", f->name);
	if (coop_capacity(&fit, f, block, shared_bytes) != 0)
		return -1;
	snprintf(what, sizeof what, "%s in %s, grid %ux%ux%u, block %ux%ux%u", f->name, f->path, grid.x,
	         grid.y, grid.z, block.x, block.y, block.z);
	if (n > fit)
		return oxrt_set_error(OX_CUDA_COOPERATIVE_LAUNCH_TOO_LARGE, "ox_launch_cooperative(%s): "
		                      "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: %llu blocks, but at most %llu of these "
		                      "(block and shared memory) can be resident at once", what, n, fit);
	return cu_check(drv.launch_coop((CUfunction)f->handle, grid.x, grid.y, grid.z, block.x, block.y, block.z,
	                                shared_bytes, (CUstream)stream, args), "cuLaunchCooperativeKernel", what);
}

const OxBackend oxcuda_backend = {
	.name = "the GPU",
	.device = "device 0",
	.absent = "no GPU",
	.absent_hint = "\n  (oxidec --target=host output linked into a .so, "
	               "'cc -shared M.o -o M.so -lm', runs without a GPU)",
	.open = cuda_open,
	.close = cuda_close,
	.device_name = cuda_device_name,
	.device_attribute = cuda_device_attribute,
	.module_load = cuda_module_load,
	.module_unload = cuda_module_unload,
	.function = cuda_function,
	.func_attribute = cuda_func_attribute,
	.func_set_max_dynamic_shared = cuda_func_set_max_dynamic_shared,
	.tensor_map_encode = cuda_tensor_map_encode,
	.module_global = cuda_module_global,
	.mem_alloc = cuda_mem_alloc,
	.mem_free = cuda_mem_free,
	.copy_to_device = cuda_copy_to_device,
	.copy_from_device = cuda_copy_from_device,
	.memset8 = cuda_memset8,
	.memset32 = cuda_memset32,
	.host_alloc = cuda_host_alloc,
	.host_free = cuda_host_free,
	.stream_create = cuda_stream_create,
	.stream_destroy = cuda_stream_destroy,
	.stream_synchronize = cuda_stream_synchronize,
	.copy_to_device_async = cuda_copy_to_device_async,
	.copy_from_device_async = cuda_copy_from_device_async,
	.launch = cuda_launch,
	.synchronize = cuda_synchronize,
	.set_stack_size = cuda_set_stack_size,
	.stack_size = cuda_stack_size,
	.event_create = cuda_event_create,
	.event_record = cuda_event_record,
	.event_elapsed_ms = cuda_event_elapsed_ms,
	.event_destroy = cuda_event_destroy,
	.error_name = cuda_error_name,
	.launch_cooperative = cuda_launch_cooperative,
	.device_count = cuda_device_count,
	.device_select = cuda_device_select,
	.peer_enable = cuda_peer_enable,
	.copy_peer = cuda_copy_peer,
};
