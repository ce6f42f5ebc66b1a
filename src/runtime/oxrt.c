/* oxrt.c: the API of oxrt.h, served by a backend (oxbackend.h): the CUDA
 * driver (oxcuda.c), or the host emulator (oxemu.c) for modules whose path
 * ends in ".so" (built from `oxidec --target=host` output).
 *
 * ox_init opens every backend it can: the driver when there is one (and
 * succeeds without it; a GPU module then fails to load, saying why), the
 * emulator always. ox_module_load picks a module's backend once, by what
 * the file is (file_backend, the only place that asks), and stores it in
 * the module and in its kernels' handles; their calls go to it. The first
 * module loaded also picks the backend of the process, which serves the
 * calls that name no module (memory, pinned host memory, streams,
 * events, synchronization, the stack limit); before any module, the first such call picks the first backend
 * that opened (the GPU if ox_init found one, else the emulator). Modules
 * of the other kind cannot be loaded after that (device pointers of one
 * backend mean nothing to the other).
 *
 * The error state lives here: ox_error() is the message of the last
 * failure, which the backends set through oxrt_set_error. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "oxbackend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char err_msg[16384];
static int err_code;

/* Every backend, in the order a call without a module prefers them. */
static const OxBackend *const backends[] = {&oxcuda_backend, &oxemu_backend};
enum { NBACKENDS = sizeof backends / sizeof backends[0] };

/* What ox_init found of each backend: open, or why not (its error). */
static struct {
	int open;
	char why[sizeof err_msg];
	int why_code;
} found[NBACKENDS];

static int inited;                /* ox_init succeeded */
static const OxBackend *proc;     /* the process's: memory, events, sync */
static int cur_device;            /* ox_device_select's; told to proc */

int oxrt_set_error(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err_msg, sizeof err_msg, fmt, ap);
	va_end(ap);
	err_code = code;
	return -1;
}

void oxrt_append_error(const char *fmt, ...)
{
	size_t used = strlen(err_msg);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err_msg + used, sizeof err_msg - used, fmt, ap);
	va_end(ap);
}

/* Opens the backends; one that fails (no GPU) keeps its error, for the
 * module that would need it. */
int ox_init(void)
{
	if (inited)
		return 0;
	for (int i = 0; i < NBACKENDS; i++) {
		found[i].open = backends[i]->open() == 0;
		if (found[i].open)
			continue;
		snprintf(found[i].why, sizeof found[i].why, "%s", err_msg);
		found[i].why_code = err_code;
		err_msg[0] = '\0';
		err_code = 0;
	}
	inited = 1;
	return 0;
}

void ox_shutdown(void)
{
	for (int i = 0; i < NBACKENDS; i++) {
		if (found[i].open)
			backends[i]->close();
		found[i].open = 0;
	}
	inited = 0;
	proc = NULL;
	cur_device = 0;
}

static int need_init(const char *call)
{
	if (inited)
		return 0;
	return oxrt_set_error(-1, "%s: ox_init() was not called or failed", call);
}

/* The first backend ox_init opened; NULL before ox_init. */
static const OxBackend *first_open(void)
{
	for (int i = 0; i < NBACKENDS; i++)
		if (found[i].open)
			return backends[i];
	return NULL;
}

/* Makes b the process's backend, on the device selected before. */
static int pick(const OxBackend *b)
{
	if (proc == b)
		return 0;
	if (cur_device != 0 && b->device_select(cur_device) != 0)
		return -1;
	proc = b;
	return 0;
}

/* The backend of a call that names no module: the process's, picked now
 * when no module is loaded yet; NULL after need_init's error. */
static const OxBackend *backend_for(const char *call)
{
	if (need_init(call) != 0)
		return NULL;
	if (proc == NULL && pick(first_open()) != 0)
		return NULL;
	return proc;
}

/* Before a backend is picked only the ordinal is kept: the first module
 * (or call without one) checks it with its backend. */
int ox_device_select(int ordinal)
{
	if (need_init("ox_device_select") != 0)
		return -1;
	if (ordinal < 0)
		return oxrt_set_error(OX_CUDA_INVALID_DEVICE, "ox_device_select(%d): CUDA_ERROR_INVALID_DEVICE "
		                      "(an ordinal is 0 or more)", ordinal);
	if (proc != NULL && proc->device_select(ordinal) != 0)
		return -1;
	cur_device = ordinal;
	return 0;
}

int ox_device_current(void)
{
	return cur_device;
}

/* The process's backend's count; before one is picked, that of the
 * backend a call without a module would pick (not picking it). */
int ox_device_count(int *n)
{
	if (need_init("ox_device_count") != 0)
		return -1;
	return (proc != NULL ? proc : first_open())->device_count(n);
}

int ox_peer_enable(int peer)
{
	const OxBackend *b = backend_for("ox_peer_enable");

	return b != NULL ? b->peer_enable(peer) : -1;
}

int ox_copy_peer(OxDevPtr dst, int dst_device, OxDevPtr src, int src_device, size_t bytes)
{
	const OxBackend *b = backend_for("ox_copy_peer");

	return b != NULL ? b->copy_peer(dst, dst_device, src, src_device, bytes) : -1;
}

/* The GPU's name, unless the process emulates (or must: no GPU). */
int ox_device_name(char *buf, int len)
{
	if (need_init("ox_device_name") != 0)
		return -1;
	return (proc != NULL ? proc : first_open())->device_name(buf, len);
}

int ox_device_attribute(int *value, int attrib)
{
	const OxBackend *b = backend_for("ox_device_attribute");

	return b != NULL ? b->device_attribute(value, attrib) : -1;
}

/* The backend of a module file: the only place that tells them apart. */
static const OxBackend *file_backend(const char *path)
{
	size_t n = strlen(path);
	int emulated = n >= 3 && strcmp(path + n - 3, ".so") == 0;

	return emulated ? &oxemu_backend : &oxcuda_backend;
}

static int index_of(const OxBackend *b)
{
	int i = 0;

	while (i < NBACKENDS - 1 && backends[i] != b)
		i++;
	return i;
}

/* Whether a module of backend b may be loaded in this process. */
static int admit(const OxBackend *b, const char *path)
{
	int i = index_of(b);

	if (need_init("ox_module_load") != 0)
		return -1;
	if (proc != NULL && proc != b)
		return oxrt_set_error(-1, "ox_module_load(%s): this process "
		                      "already uses %s; GPU modules (.ptx, "
		                      ".cubin) and emulated modules (.so) cannot "
		                      "be mixed (load the module before "
		                      "allocating memory)", path, proc->name);
	if (!found[i].open) {
		oxrt_set_error(found[i].why_code, "ox_module_load(%s): %s: %s",
		               path, b->absent, found[i].why);
		oxrt_append_error("%s", b->absent_hint);
		return -1;
	}
	return 0;
}

int ox_module_load(OxModule *m, const char *path)
{
	const OxBackend *b = file_backend(path);

	snprintf(m->path, sizeof m->path, "%s", path);
	m->handle = NULL;
	m->backend = NULL;
	m->device = cur_device;
	if (admit(b, path) != 0 || pick(b) != 0)
		return -1;
	m->backend = b;
	return b->module_load(m, path);
}

void ox_module_unload(OxModule *m)
{
	if (m->backend != NULL)
		m->backend->module_unload(m);
	m->handle = NULL;
}

int ox_function(OxFunc *f, const OxModule *m, const char *name)
{
	snprintf(f->name, sizeof f->name, "%s", name);
	snprintf(f->path, sizeof f->path, "%s", m->path);
	f->handle = NULL;
	f->backend = m->backend;
	f->device = m->device;
	if (m->backend == NULL)
		return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_function(%s): "
		                      "module %s is not loaded", name, m->path);
	return m->backend->function(f, m, name);
}

/* The backend of a kernel; NULL (with the error) when f is none. */
static const OxBackend *func_backend(const OxFunc *f, const char *call)
{
	if (f->backend != NULL)
		return f->backend;
	oxrt_set_error(OX_CUDA_INVALID_VALUE, "%s(%s): not a kernel of a loaded "
	               "module (ox_function failed or was not called)", call,
	               f->name);
	return NULL;
}

/* The backend of a kernel to launch: its module's device is current. */
static const OxBackend *launch_backend(const OxFunc *f, const char *call)
{
	const OxBackend *b = func_backend(f, call);

	if (b != NULL && f->device != cur_device) {
		oxrt_set_error(OX_CUDA_INVALID_CONTEXT, "%s(%s in %s): CUDA_ERROR_INVALID_CONTEXT: its module was "
		               "loaded on device %d, and device %d is current (ox_device_select)", call, f->name,
		               f->path, f->device, cur_device);
		return NULL;
	}
	return b;
}

/* cuFuncGetAttribute; the emulator knows no attributes. */
int ox_func_attribute(int *value, int attrib, const OxFunc *f)
{
	const OxBackend *b = func_backend(f, "ox_func_attribute");

	return b != NULL ? b->func_attribute(value, attrib, f) : -1;
}

int ox_func_set_max_dynamic_shared(const OxFunc *f, unsigned bytes)
{
	const OxBackend *b = func_backend(f, "ox_func_set_max_dynamic_shared");

	return b != NULL ? b->func_set_max_dynamic_shared(f, bytes) : -1;
}

/* The description is checked here, once for both backends. */
int ox_tensor_map_encode(OxTensorMap *map, const OxFunc *f, const OxTensorMapDesc *d)
{
	const OxBackend *b = func_backend(f, "ox_tensor_map_encode");

	if (b == NULL)
		return -1;
	if (d->rank < 1 || d->rank > 5 || (d->elem_bytes != 1 && d->elem_bytes != 2 && d->elem_bytes != 4 &&
	                                   d->elem_bytes != 8) || d->global % 16 != 0 ||
	    (d->swizzle != 0 && d->swizzle != 32 && d->swizzle != 64 && d->swizzle != 128))
		return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_tensor_map_encode: rank %u, %u-byte elements, "
		                      "swizzle %u, base %#llx: not a valid description", d->rank, d->elem_bytes,
		                      d->swizzle, (unsigned long long)d->global);
	for (unsigned i = 0; i < d->rank; i++)
		if (d->dims[i] == 0 || d->box[i] == 0 || d->box[i] > 256 || (i > 0 && d->strides[i - 1] % 16 != 0))
			return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_tensor_map_encode: dimension %u "
			                      "(%llu elements, box %u, stride %llu) is not valid", i,
			                      (unsigned long long)d->dims[i], d->box[i],
			                      (unsigned long long)(i > 0 ? d->strides[i - 1] : 0));
	if (d->box[0] * d->elem_bytes % 16 != 0 || (d->swizzle != 0 && d->box[0] * d->elem_bytes > d->swizzle))
		return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_tensor_map_encode: the box's rows are %u bytes: "
		                      "a multiple of 16, at most the swizzle span", d->box[0] * d->elem_bytes);
	return b->tensor_map_encode(map, d);
}

int ox_module_global(const OxModule *m, const char *name, OxDevPtr *ptr,
                     size_t *size)
{
	if (m->backend == NULL)
		return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_module_global(%s): "
		                      "module %s is not loaded", name, m->path);
	return m->backend->module_global(m, name, ptr, size);
}

int ox_alloc(OxDevPtr *p, size_t bytes)
{
	const OxBackend *b = backend_for("ox_alloc");

	return b != NULL ? b->mem_alloc(p, bytes) : -1;
}

int ox_free(OxDevPtr p)
{
	const OxBackend *b = backend_for("ox_free");

	return b != NULL ? b->mem_free(p) : -1;
}

int ox_copy_to_device(OxDevPtr dst, const void *src, size_t bytes)
{
	const OxBackend *b = backend_for("ox_copy_to_device");

	return b != NULL ? b->copy_to_device(dst, src, bytes) : -1;
}

int ox_copy_from_device(void *dst, OxDevPtr src, size_t bytes)
{
	const OxBackend *b = backend_for("ox_copy_from_device");

	return b != NULL ? b->copy_from_device(dst, src, bytes) : -1;
}

int ox_memset8(OxDevPtr p, unsigned char value, size_t bytes)
{
	const OxBackend *b = backend_for("ox_memset8");

	return b != NULL ? b->memset8(p, value, bytes) : -1;
}

int ox_memset32(OxDevPtr p, uint32_t value, size_t count)
{
	const OxBackend *b = backend_for("ox_memset32");

	return b != NULL ? b->memset32(p, value, count) : -1;
}

int ox_host_alloc(void **p, size_t bytes)
{
	const OxBackend *b = backend_for("ox_host_alloc");

	return b != NULL ? b->host_alloc(p, bytes) : -1;
}

int ox_host_free(void *p)
{
	const OxBackend *b = backend_for("ox_host_free");

	return b != NULL ? b->host_free(p) : -1;
}

/* The backend's handle of a stream; NULL, the default stream, for none. */
static void *stream_handle(const OxStream *s)
{
	return s != NULL ? s->handle : NULL;
}

int ox_stream_create(OxStream *s)
{
	const OxBackend *b = backend_for("ox_stream_create");

	s->handle = NULL;
	return b != NULL ? b->stream_create(&s->handle) : -1;
}

int ox_stream_destroy(OxStream *s)
{
	const OxBackend *b = backend_for("ox_stream_destroy");
	int r = b != NULL && s->handle != NULL ? b->stream_destroy(s->handle) : 0;

	s->handle = NULL;
	return b != NULL ? r : -1;
}

int ox_stream_synchronize(const OxStream *s)
{
	const OxBackend *b = backend_for("ox_stream_synchronize");

	return b != NULL ? b->stream_synchronize(stream_handle(s)) : -1;
}

int ox_copy_to_device_async(OxDevPtr dst, const void *src, size_t bytes,
                            const OxStream *s)
{
	const OxBackend *b = backend_for("ox_copy_to_device_async");

	return b != NULL ? b->copy_to_device_async(dst, src, bytes, stream_handle(s)) : -1;
}

int ox_copy_from_device_async(void *dst, OxDevPtr src, size_t bytes,
                              const OxStream *s)
{
	const OxBackend *b = backend_for("ox_copy_from_device_async");

	return b != NULL ? b->copy_from_device_async(dst, src, bytes, stream_handle(s)) : -1;
}

OxDim3 ox_dim(unsigned x, unsigned y, unsigned z)
{
	OxDim3 d = {x, y, z};

	return d;
}

unsigned ox_blocks_for(size_t n, unsigned block)
{
	return (unsigned)((n + block - 1) / block);
}

int ox_launch_on(const OxFunc *f, OxDim3 grid, OxDim3 block,
                 unsigned shared_bytes, const OxStream *s, void **args)
{
	const OxBackend *b = launch_backend(f, "ox_launch");
	OxDim3 none = {0, 0, 0};

	return b != NULL ? b->launch(f, grid, block, none, shared_bytes, stream_handle(s), args) : -1;
}

int ox_launch(const OxFunc *f, OxDim3 grid, OxDim3 block,
              unsigned shared_bytes, void **args)
{
	return ox_launch_on(f, grid, block, shared_bytes, NULL, args);
}

int ox_launch_cluster_on(const OxFunc *f, OxDim3 grid, OxDim3 block,
                         OxDim3 cluster, unsigned shared_bytes,
                         const OxStream *s, void **args)
{
	const OxBackend *b = launch_backend(f, "ox_launch_cluster");

	if (b != NULL && (cluster.x == 0 || cluster.y == 0 || cluster.z == 0))
		return oxrt_set_error(OX_CUDA_INVALID_CLUSTER_SIZE, "ox_launch_cluster(%s): cluster %ux%ux%u: "
		                      "a cluster dimension is 0", f->name, cluster.x, cluster.y, cluster.z);
	return b != NULL ? b->launch(f, grid, block, cluster, shared_bytes, stream_handle(s), args) : -1;
}

int ox_launch_cluster(const OxFunc *f, OxDim3 grid, OxDim3 block,
                      OxDim3 cluster, unsigned shared_bytes, void **args)
{
	return ox_launch_cluster_on(f, grid, block, cluster, shared_bytes, NULL, args);
}

int ox_launch_cooperative_on(const OxFunc *f, OxDim3 grid, OxDim3 block,
                             unsigned shared_bytes, const OxStream *s, void **args)
{
	const OxBackend *b = launch_backend(f, "ox_launch_cooperative");

	return b != NULL ? b->launch_cooperative(f, grid, block, shared_bytes, stream_handle(s), args) : -1;
}

int ox_launch_cooperative(const OxFunc *f, OxDim3 grid, OxDim3 block,
                          unsigned shared_bytes, void **args)
{
	return ox_launch_cooperative_on(f, grid, block, shared_bytes, NULL, args);
}

int ox_launch_sync(const OxFunc *f, OxDim3 grid, OxDim3 block,
                   unsigned shared_bytes, void **args)
{
	char what[700];

	if (ox_launch(f, grid, block, shared_bytes, args) != 0)
		return -1;
	snprintf(what, sizeof what, "after kernel %s in %s", f->name, f->path);
	return f->backend->synchronize("ox_launch_sync", what);
}

int ox_set_stack_size(size_t bytes)
{
	const OxBackend *b = backend_for("ox_set_stack_size");

	return b != NULL ? b->set_stack_size(bytes) : -1;
}

int ox_stack_size(size_t *bytes)
{
	const OxBackend *b = backend_for("ox_stack_size");

	return b != NULL ? b->stack_size(bytes) : -1;
}

int ox_synchronize(void)
{
	const OxBackend *b = backend_for("ox_synchronize");

	return b != NULL ? b->synchronize("ox_synchronize", b->device) : -1;
}

int ox_event_create(OxEvent *e)
{
	const OxBackend *b = backend_for("ox_event_create");

	return b != NULL ? b->event_create(e) : -1;
}

int ox_event_record_on(OxEvent *e, const OxStream *s)
{
	const OxBackend *b = backend_for("ox_event_record");

	return b != NULL ? b->event_record(e, stream_handle(s)) : -1;
}

int ox_event_record(OxEvent *e)
{
	return ox_event_record_on(e, NULL);
}

/* Waits for end, then the time between start and end in milliseconds. */
int ox_event_elapsed_ms(float *ms, OxEvent *start, OxEvent *end)
{
	const OxBackend *b = backend_for("ox_event_elapsed_ms");

	return b != NULL ? b->event_elapsed_ms(ms, start, end) : -1;
}

void ox_event_destroy(OxEvent *e)
{
	if (proc != NULL)
		proc->event_destroy(e);
	e->handle = NULL;
}

const char *ox_error(void)
{
	return err_msg;
}

int ox_error_code(void)
{
	return err_code;
}

/* The driver's name for err_code; without a driver, the names of the
 * codes the emulator reports. */
const char *ox_error_name(void)
{
	const char *name;

	for (int i = 0; i < NBACKENDS; i++)
		if ((name = backends[i]->error_name(err_code)) != NULL)
			return name;
	return "not a CUDA error";
}

int ox_error_is_trap(void)
{
	return err_code == OX_CUDA_ILLEGAL_INSTRUCTION ||
	       err_code == OX_CUDA_LAUNCH_FAILED ||
	       err_code == OX_CUDA_ASSERT;
}

_Noreturn void ox_die(const char *what, const char *file, int line)
{
	fflush(stdout);         /* keep PASS/FAIL lines before the reason */
	fprintf(stderr, "%s:%d: %s failed:\n  %s\n", file, line, what, err_msg);
	exit(1);
}
