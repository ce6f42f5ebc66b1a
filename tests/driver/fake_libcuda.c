/* tests/driver/fake_libcuda.c: a stand-in for the CUDA driver
 * (libcuda.so.1), so that oxrt's driver backend (src/runtime/oxcuda.c)
 * runs on a machine without a GPU. Device memory is host memory; modules
 * are text files, and "bad" in one makes the JIT fail; every module has
 * one kernel, k (local size 4096 bytes), and one global, g (16 bytes).
 * Streams are distinct handles; pinned memory is malloc'ed.
 * fake_last_launch, fake_last_stream and fake_fail_next_sync let the test
 * see and steer what the driver got; fake_cooperative_launches counts the
 * launches that came through cuLaunchCooperativeKernel (132
 * multiprocessors, each holding 2048 threads' worth of blocks, at most
 * 32). Two devices (0 and 1), each with its own primary context;
 * fake_current_device says which context is current, and peer access is
 * possible between them (enabled once: the second time is
 * CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, as the driver says).
 * Built by tests/driver/run.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum { OK = 0, INVALID_VALUE = 1, INVALID_PTX = 218, NOT_FOUND = 500,
       LAUNCH_FAILED = 719, INVALID_CLUSTER_SIZE = 912 };

/* cuda.h's launch configuration (cuLaunchKernelEx), as it declares it */
typedef struct {
	int id;
	char pad[8 - sizeof(int)];
	union {
		char pad[64];
		struct { unsigned x, y, z; } clusterDim;
	} value;
} CUlaunchAttribute;
typedef struct {
	unsigned int gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
	void *hStream;
	CUlaunchAttribute *attrs;
	unsigned int numAttrs;
} CUlaunchConfig;

static int ctx, mod, fn, ev;
static int ctxs[2];               /* the devices' primary contexts */
static int *current = &ctx;       /* cuCtxSetCurrent's */
static int peer_enabled[2];       /* by the context the access is to */
static size_t stack_limit = 1024;
static int fail_sync;
static unsigned last[10];         /* grid x y z, block x y z, shared, cluster x y z */
static void *last_stream;         /* of the last launch, async copy or event record */
static int streams_live;          /* created and not destroyed */

/* fake_*: the test's view (not driver functions) */
const unsigned *fake_last_launch(void);
void *fake_last_stream(void);
void *fake_streams_live(void);     /* the count, as a pointer-sized integer */
void fake_fail_next_sync(void);
const unsigned *fake_last_launch(void) { return last; }
void *fake_last_stream(void) { return last_stream; }
void *fake_streams_live(void) { return (void *)(size_t)streams_live; }
void fake_fail_next_sync(void) { fail_sync = 1; }
void *fake_current_device(void);  /* the ordinal, as a pointer-sized integer */
void *fake_current_device(void) { return (void *)(size_t)(current == &ctxs[1]); }

/* the driver entry points oxcuda.c binds, as cuda.h declares them */
CUresult cuInit(unsigned flags);
CUresult cuDeviceGet(int *dev, int ordinal);
CUresult cuDeviceGetName(char *name, int len, int dev);
CUresult cuDeviceGetAttribute(int *value, int attrib, int dev);
CUresult cuDevicePrimaryCtxRetain(void **c, int dev);
CUresult cuDevicePrimaryCtxRelease_v2(int dev);
CUresult cuCtxSetCurrent(void *c);
CUresult cuCtxSynchronize(void);
CUresult cuCtxSetLimit(int limit, size_t value);
CUresult cuCtxGetLimit(size_t *value, int limit);
CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *opts, void **vals);
CUresult cuModuleUnload(void *m);
CUresult cuModuleGetFunction(void **f, void *m, const char *name);
CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *size, void *m, const char *name);
CUresult cuModuleGetFunctionCount(unsigned *n, void *m);
CUresult cuModuleEnumerateFunctions(void **fns, unsigned n, void *m);
CUresult cuFuncGetName(const char **name, void *f);
CUresult cuFuncGetAttribute(int *value, int attrib, void *f);
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes);
CUresult cuMemFree_v2(CUdeviceptr p);
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes);
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes);
CUresult cuMemsetD8_v2(CUdeviceptr p, unsigned char v, size_t n);
CUresult cuMemsetD32_v2(CUdeviceptr p, unsigned v, size_t n);
CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags);
CUresult cuMemFreeHost(void *p);
CUresult cuStreamCreate(void **s, unsigned flags);
CUresult cuStreamSynchronize(void *s);
CUresult cuStreamDestroy_v2(void *s);
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes, void *s);
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, void *s);
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        void *stream, void **args, void **extra);
CUresult cuLaunchKernelEx(const CUlaunchConfig *c, void *f, void **args, void **extra);
CUresult cuEventCreate(void **e, unsigned flags);
CUresult cuEventRecord(void *e, void *stream);
CUresult cuEventSynchronize(void *e);
CUresult cuEventElapsedTime(float *ms, void *start, void *end);
CUresult cuEventDestroy_v2(void *e);
CUresult cuGetErrorName(CUresult r, const char **name);
CUresult cuGetErrorString(CUresult r, const char **text);

static void *host(CUdeviceptr p) { return (void *)(size_t)p; }

CUresult cuInit(unsigned flags) { (void)flags; return OK; }
CUresult cuDeviceGet(int *dev, int ordinal) { *dev = ordinal; return OK; }
CUresult cuDeviceGetName(char *name, int len, int dev) { snprintf(name, (size_t)len, "Fake GPU %d", dev); return OK; }
/* 132 multiprocessors (attribute 16, as the H200); no other attribute */
CUresult cuDeviceGetAttribute(int *value, int attrib, int dev)
{
	(void)dev;
	if (attrib == 95) {             /* COOPERATIVE_LAUNCH */
		*value = 1;
		return OK;
	}
	if (attrib != 16)
		return 1;
	*value = 132;
	return OK;
}
CUresult cuDevicePrimaryCtxRetain(void **c, int dev) { *c = &ctxs[dev == 1]; return OK; }
CUresult cuDevicePrimaryCtxRelease_v2(int dev) { (void)dev; return OK; }
CUresult cuCtxSetCurrent(void *c) { current = c; return OK; }

CUresult cuDeviceGetCount(int *n);
CUresult cuDeviceCanAccessPeer(int *can, int dev, int peer);
CUresult cuCtxEnablePeerAccess(void *peer, unsigned flags);
CUresult cuMemcpyPeer(CUdeviceptr dst, void *dst_ctx, CUdeviceptr src, void *src_ctx, size_t bytes);
CUresult cuDeviceGetCount(int *n) { *n = 2; return OK; }
CUresult cuDeviceCanAccessPeer(int *can, int dev, int peer) { *can = dev != peer; return OK; }
CUresult cuCtxEnablePeerAccess(void *peer, unsigned flags)
{
	int i = peer == &ctxs[1];

	if (flags != 0 || peer == current)
		return INVALID_VALUE;
	if (peer_enabled[i])
		return 704;                 /* PEER_ACCESS_ALREADY_ENABLED */
	peer_enabled[i] = 1;
	return OK;
}
CUresult cuMemcpyPeer(CUdeviceptr dst, void *dst_ctx, CUdeviceptr src, void *src_ctx, size_t bytes)
{
	if (dst_ctx == NULL || src_ctx == NULL)
		return INVALID_VALUE;
	memmove((void *)(size_t)dst, (const void *)(size_t)src, bytes);
	return OK;
}
CUresult cuCtxSetLimit(int limit, size_t value) { (void)limit; stack_limit = value; return OK; }
CUresult cuCtxGetLimit(size_t *value, int limit) { (void)limit; *value = stack_limit; return OK; }

CUresult cuCtxSynchronize(void)
{
	int fail = fail_sync;

	fail_sync = 0;
	return fail ? LAUNCH_FAILED : OK;
}

CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *opts, void **vals)
{
	(void)n, (void)opts;
	if (strstr(image, "bad") != NULL) {
		snprintf(vals[0], 64, "ptxas fatal: the module says bad");
		return INVALID_PTX;
	}
	*m = &mod;
	return OK;
}

CUresult cuModuleUnload(void *m) { (void)m; return OK; }

CUresult cuModuleGetFunction(void **f, void *m, const char *name)
{
	(void)m;
	if (strcmp(name, "k") != 0)
		return NOT_FOUND;
	*f = &fn;
	return OK;
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *size, void *m, const char *name)
{
	static unsigned char g[16];

	(void)m;
	if (strcmp(name, "g") != 0)
		return NOT_FOUND;
	*p = (CUdeviceptr)(size_t)g;
	*size = sizeof g;
	return OK;
}

CUresult cuModuleGetFunctionCount(unsigned *n, void *m) { (void)m; *n = 1; return OK; }
CUresult cuModuleEnumerateFunctions(void **fns, unsigned n, void *m) { (void)n, (void)m; fns[0] = &fn; return OK; }
CUresult cuFuncGetName(const char **name, void *f) { (void)f; *name = "k"; return OK; }
CUresult cuFuncGetAttribute(int *value, int attrib, void *f) { (void)f; *value = attrib == 3 ? 4096 : 7; return OK; }

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes)
{
	void *mem = bytes != 0 ? malloc(bytes) : NULL;

	if (mem == NULL)
		return INVALID_VALUE;
	*p = (CUdeviceptr)(size_t)mem;
	return OK;
}

CUresult cuMemFree_v2(CUdeviceptr p) { free(host(p)); return OK; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) { memcpy(host(dst), src, bytes); return OK; }
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) { memcpy(dst, host(src), bytes); return OK; }
CUresult cuMemsetD8_v2(CUdeviceptr p, unsigned char v, size_t n) { memset(host(p), v, n); return OK; }

CUresult cuMemsetD32_v2(CUdeviceptr p, unsigned v, size_t n)
{
	unsigned *w = host(p);

	for (size_t i = 0; i < n; i++)
		w[i] = v;
	return OK;
}

/* flags must be 0 (oxcuda's CU_STREAM_DEFAULT) */
CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags)
{
	if (flags != 0 || bytes == 0 || (*p = malloc(bytes)) == NULL)
		return INVALID_VALUE;
	return OK;
}

CUresult cuMemFreeHost(void *p) { free(p); return OK; }

CUresult cuStreamCreate(void **s, unsigned flags)
{
	if (flags != 0 || (*s = malloc(1)) == NULL)
		return INVALID_VALUE;
	streams_live++;
	return OK;
}

CUresult cuStreamSynchronize(void *s) { last_stream = s; return cuCtxSynchronize(); }

CUresult cuStreamDestroy_v2(void *s)
{
	if (s == NULL)
		return INVALID_VALUE;
	free(s);
	streams_live--;
	return OK;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes, void *s)
{
	last_stream = s;
	memcpy(host(dst), src, bytes);
	return OK;
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, void *s)
{
	last_stream = s;
	memcpy(dst, host(src), bytes);
	return OK;
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        void *stream, void **args, void **extra)
{
	unsigned v[10] = {gx, gy, gz, bx, by, bz, shared, 0, 0, 0};

	(void)f, (void)args, (void)extra;
	if (bx * by * bz > 1024)
		return INVALID_VALUE;
	memcpy(last, v, sizeof last);
	last_stream = stream;
	return OK;
}

/* Only the cluster dimension attribute (id 4); more than 8 blocks is
 * refused, as the driver refuses a non-portable size by default. */
CUresult cuLaunchKernelEx(const CUlaunchConfig *c, void *f, void **args, void **extra)
{
	unsigned v[10] = {c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY, c->blockDimZ,
	                  c->sharedMemBytes, 0, 0, 0};

	(void)f, (void)args, (void)extra;
	if (c->numAttrs != 1 || c->attrs[0].id != 4)
		return INVALID_VALUE;
	last_stream = c->hStream;
	v[7] = c->attrs[0].value.clusterDim.x;
	v[8] = c->attrs[0].value.clusterDim.y;
	v[9] = c->attrs[0].value.clusterDim.z;
	if (v[7] * v[8] * v[9] > 8)
		return INVALID_CLUSTER_SIZE;
	memcpy(last, v, sizeof last);
	return OK;
}

CUresult cuEventCreate(void **e, unsigned flags) { (void)flags; *e = &ev; return OK; }
CUresult cuEventRecord(void *e, void *stream) { (void)e; last_stream = stream; return OK; }
CUresult cuEventSynchronize(void *e) { (void)e; return OK; }
CUresult cuEventElapsedTime(float *ms, void *start, void *end) { (void)start, (void)end; *ms = 1.5f; return OK; }
CUresult cuEventDestroy_v2(void *e) { (void)e; return OK; }

CUresult cuGetErrorName(CUresult r, const char **name)
{
	switch (r) {
	case INVALID_VALUE: *name = "CUDA_ERROR_INVALID_VALUE"; return OK;
	case INVALID_PTX: *name = "CUDA_ERROR_INVALID_PTX"; return OK;
	case NOT_FOUND: *name = "CUDA_ERROR_NOT_FOUND"; return OK;
	case LAUNCH_FAILED: *name = "CUDA_ERROR_LAUNCH_FAILED"; return OK;
	case INVALID_CLUSTER_SIZE: *name = "CUDA_ERROR_INVALID_CLUSTER_SIZE"; return OK;
	default: return INVALID_VALUE;
	}
}

CUresult cuGetErrorString(CUresult r, const char **text) { (void)r; *text = "fake driver"; return OK; }

/* ---- cooperative launches (ox_launch_cooperative) ---- */
static unsigned coop_launches;

unsigned fake_cooperative_launches(void);
unsigned fake_cooperative_launches(void) { return coop_launches; }

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *f, int block, size_t shared);
CUresult cuLaunchCooperativeKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned shared, void *stream, void **args);

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *f, int block, size_t shared)
{
	(void)f, (void)shared;
	if (block <= 0 || block > 1024)
		return INVALID_VALUE;
	*n = 2048 / block < 32 ? 2048 / block : 32;
	return OK;
}

/* Refuses what the real driver refuses: more blocks than fit at once. */
CUresult cuLaunchCooperativeKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned shared, void *stream, void **args)
{
	int per_sm = 0;

	if (stream != NULL || cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, (int)(bx * by * bz), shared) != OK)
		return INVALID_VALUE;
	if ((unsigned long long)gx * gy * gz > (unsigned long long)per_sm * 132)
		return 720;             /* COOPERATIVE_LAUNCH_TOO_LARGE */
	if (cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, stream, args, NULL) != OK)
		return INVALID_VALUE;
	coop_launches++;
	return OK;
}
