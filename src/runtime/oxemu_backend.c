/* oxemu_backend.c: the host emulator's side of oxbackend.h: modules and
 * kernels (dlopen), memory, pinned memory, streams and events, the stack
 * limit, shared memory and module globals, printf, and the backend table
 * oxemu_backend itself. The launches it starts run in oxemu.c. */
#include "oxemu_impl.h"

/* ------------------------------------------------- modules and kernels */

/* dlopen of file, the module that messages call path. */
static int emu_dlopen(OxModule *m, const char *file, const char *path)
{
	const char *err;
	void *h;

	m->handle = NULL;
	if (access(file, R_OK) != 0)
		return oxrt_set_error(-1, "cannot read module %s: %s", path,
		                      strerror(errno));
	h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		err = dlerror();
		oxrt_set_error(OX_CUDA_INVALID_IMAGE, "ox_module_load(%s): "
		               "CUDA_ERROR_INVALID_IMAGE (emulated: %s)", path,
		               err != NULL ? err : "dlopen failed");
		if (err != NULL && strstr(err, "__oxide_host_") != NULL)
			oxrt_append_error("\n  the module calls the emulator's "
			                  "__oxide_host_* functions: link the host "
			                  "program with src/runtime/oxemu*.c and "
			                  "-rdynamic, which exports them");
		return -1;
	}
	if (dlsym(h, "__oxide_kernels") == NULL) {
		dlclose(h);
		return oxrt_set_error(OX_CUDA_INVALID_IMAGE, "ox_module_load(%s): "
		                      "CUDA_ERROR_INVALID_IMAGE (emulated: not a "
		                      "module made by oxidec --target=host)", path);
	}
	m->handle = h;
	return 0;
}

static int emu_module_load(OxModule *m, const char *path)
{
	char local[600];

	if (strchr(path, '/') == NULL) {   /* dlopen would search LD paths */
		snprintf(local, sizeof local, "./%s", path);
		return emu_dlopen(m, local, path);
	}
	return emu_dlopen(m, path, path);
}

/* A .so in memory: dlopen needs a file, so it is written to one in
 * $TMPDIR (or /tmp), loaded, and removed (the mapping stays). */
static int emu_module_load_data(OxModule *m, const void *image, size_t bytes)
{
	const char *dir = getenv("TMPDIR");
	char tmp[600];
	int fd, r;

	snprintf(tmp, sizeof tmp, "%s/oxide-module-XXXXXX", dir != NULL && *dir != '\0' ? dir : "/tmp");
	if ((fd = mkstemp(tmp)) < 0)
		return oxrt_set_error(-1, "ox_module_load_data(%s): cannot make a file for dlopen in %s: %s",
		                      m->path, dir != NULL && *dir != '\0' ? dir : "/tmp", strerror(errno));
	for (size_t done = 0; done < bytes;) {
		ssize_t n = write(fd, (const char *)image + done, bytes - done);
		if (n <= 0) {
			close(fd);
			unlink(tmp);
			return oxrt_set_error(-1, "ox_module_load_data(%s): writing %s: %s", m->path, tmp,
			                      strerror(errno));
		}
		done += (size_t)n;
	}
	close(fd);
	r = emu_dlopen(m, tmp, m->path);
	unlink(tmp);
	return r;
}

static void emu_module_unload(OxModule *m)
{
	if (m->handle != NULL)
		dlclose(m->handle);
	m->handle = NULL;
}

static int emu_function(OxFunc *f, const OxModule *m, const char *name)
{
	char sym[300];
	const char *names;

	if (m->handle == NULL)
		return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_function(%s): "
		                      "module %s is not loaded", name, m->path);
	snprintf(sym, sizeof sym, "__oxide_launch_%s", name);
	f->handle = dlsym(m->handle, sym);
	f->module = m->handle;        /* a launch reads __oxide_cluster_<name> */
	if (f->handle != NULL)
		return 0;
	oxrt_set_error(OX_CUDA_NOT_FOUND, "ox_function(%s): CUDA_ERROR_NOT_FOUND "
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
	int device;                   /* emu_cur at its allocation */
} Alloc;

enum { ALLOC_HEADER = 256 };

static Alloc allocs = {&allocs, &allocs, 0, 0};

static int emu_cur;               /* the current emulated device */

static int emu_alloc(OxDevPtr *p, size_t bytes)
{
	void *mem = NULL;
	Alloc *a;

	if (bytes == 0)
		return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_alloc(0 bytes): "
		                      "CUDA_ERROR_INVALID_VALUE (emulated)");
	if (bytes > SIZE_MAX - ALLOC_HEADER ||
	    posix_memalign(&mem, 256, ALLOC_HEADER + bytes) != 0)
		return oxrt_set_error(OX_CUDA_OUT_OF_MEMORY, "ox_alloc(%zu bytes): "
		                      "CUDA_ERROR_OUT_OF_MEMORY (emulated)", bytes);
	a = mem;
	a->bytes = bytes;
	a->device = emu_cur;
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
static int emu_free(OxDevPtr p)
{
	Alloc *a;

	if (p == 0)
		return 0;
	for (a = allocs.next; a != &allocs; a = a->next)
		if ((char *)a + ALLOC_HEADER == host_ptr(p)) {
			release(a);
			return 0;
		}
	return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_free(0x%llx): "
		                      "CUDA_ERROR_INVALID_VALUE (emulated: not "
		                      "an allocation of ox_alloc, or freed "
		                      "already)", (unsigned long long)p);
}

static void emu_close(void)
{
	while (allocs.next != &allocs)
		release(allocs.next);
	oxemu_trap.pending = 0;
	emu_cur = 0;
}

/* ------------------------------------------------- several devices */

enum { EMU_MAX_DEVICES = 64 };

/* OX_EMU_DEVICES, 1 to EMU_MAX_DEVICES (default 1). */
static int emu_device_count(int *n)
{
	const char *v = getenv("OX_EMU_DEVICES");
	char *end;
	long k = 1;

	if (v != NULL && *v != '\0') {
		k = strtol(v, &end, 10);
		if (*end != '\0' || k < 1 || k > EMU_MAX_DEVICES)
			return oxrt_set_error(OX_CUDA_INVALID_VALUE, "OX_EMU_DEVICES=%s: the number of emulated devices, "
			                      "1 to %d", v, (int)EMU_MAX_DEVICES);
	}
	*n = (int)k;
	return 0;
}

static int valid_device(int d, const char *call)
{
	int n;

	if (emu_device_count(&n) != 0)
		return -1;
	if (d < 0 || d >= n)
		return oxrt_set_error(OX_CUDA_INVALID_DEVICE, "%s(%d): CUDA_ERROR_INVALID_DEVICE (emulated: %d "
		                      "device%s; OX_EMU_DEVICES sets how many)", call, d, n, n == 1 ? "" : "s");
	return 0;
}

static int emu_device_select(int d)
{
	if (valid_device(d, "ox_device_select") != 0)
		return -1;
	emu_cur = d;
	return 0;
}

/* Emulated devices share the host's memory: any two can access each
 * other's, as on a machine whose GPUs are all linked. */
static int emu_peer_enable(int peer)
{
	if (valid_device(peer, "ox_peer_enable") != 0)
		return -1;
	if (peer == emu_cur)
		return oxrt_set_error(OX_CUDA_INVALID_DEVICE, "ox_peer_enable(%d): CUDA_ERROR_INVALID_DEVICE "
		                      "(emulated: device %d is the current device)", peer, peer);
	return 0;
}

/* Whether [p, p + bytes) lies in one allocation of device d. */
static int in_allocation(OxDevPtr p, size_t bytes, int d)
{
	for (Alloc *a = allocs.next; a != &allocs; a = a->next) {
		char *base = (char *)a + ALLOC_HEADER, *q = host_ptr(p);

		if (q >= base && q < base + a->bytes)
			return a->device == d && bytes <= (size_t)(base + a->bytes - q);
	}
	return 0;
}

static int emu_copy_peer(OxDevPtr dst, int dst_device, OxDevPtr src, int src_device, size_t bytes)
{
	if (valid_device(dst_device, "ox_copy_peer") != 0 || valid_device(src_device, "ox_copy_peer") != 0)
		return -1;
	if (!in_allocation(dst, bytes, dst_device) || !in_allocation(src, bytes, src_device))
		return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_copy_peer(0x%llx on device %d <- 0x%llx on device "
		                      "%d, %zu bytes): CUDA_ERROR_INVALID_VALUE (emulated: %s is not within one "
		                      "allocation of its device)", (unsigned long long)dst, dst_device,
		                      (unsigned long long)src, src_device, bytes,
		                      !in_allocation(dst, bytes, dst_device) ? "the destination" : "the source");
	if (oxemu_synchronize("ox_copy_peer", "device to device") != 0)
		return -1;
	memmove(host_ptr(dst), host_ptr(src), bytes);
	return 0;
}

static int emu_copy_to_device(OxDevPtr dst, const void *src, size_t bytes)
{
	memcpy(host_ptr(dst), src, bytes);
	return 0;
}

static int emu_copy_from_device(void *dst, OxDevPtr src, size_t bytes)
{
	if (oxemu_synchronize("ox_copy_from_device", "device to host") != 0)
		return -1;
	memcpy(dst, host_ptr(src), bytes);
	return 0;
}

static int emu_memset8(OxDevPtr p, unsigned char value, size_t bytes)
{
	memset(host_ptr(p), value, bytes);
	return 0;
}

static int emu_memset32(OxDevPtr p, uint32_t value, size_t count)
{
	uint32_t *w = host_ptr(p);

	for (size_t i = 0; i < count; i++)
		w[i] = value;
	return 0;
}

/* Pinned memory is plain host memory: every copy here is synchronous. */
static int emu_host_alloc(void **p, size_t bytes)
{
	if (bytes == 0 || (*p = malloc(bytes)) == NULL)
		return oxrt_set_error(bytes == 0 ? OX_CUDA_INVALID_VALUE : OX_CUDA_OUT_OF_MEMORY,
		                      "ox_host_alloc(%zu bytes): %s (emulated)", bytes,
		                      bytes == 0 ? "CUDA_ERROR_INVALID_VALUE" : "CUDA_ERROR_OUT_OF_MEMORY");
	return 0;
}

static int emu_host_free(void *p)
{
	free(p);
	return 0;
}

/* Streams. Work issued on a stream runs when it is issued (a launch runs
 * its whole grid before ox_launch_on returns, a copy copies), so each
 * stream's work runs in issue order and no two streams overlap: one of
 * the orders CUDA's stream semantics allow, the one a program that
 * synchronizes correctly cannot tell from any other (a program that reads
 * a stream's results before synchronizing it is wrong on a GPU, not
 * here). A trap is kept until the next synchronization, of any stream
 * (there is one pending trap, as on a GPU the context is lost). The
 * handle only has to be distinct from NULL, the default stream. */
static int emu_stream_create(void **stream)
{
	if ((*stream = malloc(1)) == NULL)
		return oxrt_set_error(OX_CUDA_OUT_OF_MEMORY, "ox_stream_create: CUDA_ERROR_OUT_OF_MEMORY (emulated)");
	return 0;
}

static int emu_stream_destroy(void *stream)
{
	free(stream);
	return 0;
}

static int emu_stream_synchronize(void *stream)
{
	return oxemu_synchronize("ox_stream_synchronize", stream != NULL ? "stream" : "default stream");
}

static int emu_copy_to_device_async(OxDevPtr dst, const void *src, size_t bytes, void *stream)
{
	(void)stream;
	return emu_copy_to_device(dst, src, bytes);
}

/* A trap of an earlier launch is left for the stream's synchronization,
 * as the driver reports it there. */
static int emu_copy_from_device_async(void *dst, OxDevPtr src, size_t bytes, void *stream)
{
	(void)stream;
	memcpy(dst, host_ptr(src), bytes);
	return 0;
}

static int emu_event_create(OxEvent *e)
{
	e->handle = calloc(1, sizeof(struct timespec));
	if (e->handle == NULL)
		return oxrt_set_error(OX_CUDA_OUT_OF_MEMORY, "ox_event_create: "
		                      "CUDA_ERROR_OUT_OF_MEMORY (emulated)");
	return 0;
}

static int emu_event_record(OxEvent *e, void *stream)
{
	(void)stream;
	clock_gettime(CLOCK_MONOTONIC, e->handle);
	return 0;
}

static int emu_event_elapsed_ms(float *ms, OxEvent *start, OxEvent *end)
{
	const struct timespec *a = start->handle, *b = end->handle;

	if (oxemu_synchronize("ox_event_elapsed_ms", "end event") != 0)
		return -1;
	*ms = (float)((double)(b->tv_sec - a->tv_sec) * 1e3 +
	              (double)(b->tv_nsec - a->tv_nsec) / 1e6);
	return 0;
}

static void emu_event_destroy(OxEvent *e)
{
	free(e->handle);
	e->handle = NULL;
}

/* ------------------------------------------- shared, constant, printf */

static int emu_set_stack_size(size_t bytes)
{
	oxemu_stack_limit = bytes;
	return 0;
}

static int emu_stack_size(size_t *bytes)
{
	*bytes = oxemu_stack_limit;
	return 0;
}

void *__oxide_host_dynamic_shared(void)
{
	static _Alignas(16) unsigned char none[16];
	return oxemu_dyn_shared.buf != NULL ? oxemu_dyn_shared.buf : none;
}

/* The device heap (oxide_device::alloc::DeviceHeap): CUDA's malloc and
 * free, here the C library's (blocks 16-byte aligned on the hosts oxidec
 * supports, as the GPU's; null when out of memory). */
void *__oxide_host_malloc(unsigned long long size)
{
	void *p = malloc(size);
	if (p != NULL && ((uintptr_t)p & 15) != 0) {
		free(p);
		return NULL;
	}
	return p;
}

void __oxide_host_free(void *block)
{
	free(block);
}

/* The running block's Shared<T> statics (oxidec --target=host makes each
 * an offset in them). A kernel called directly gets one block's worth:
 * 48 KiB, the most static shared memory a GPU block has. */
void *__oxide_host_static_shared(void)
{
	static _Alignas(1024) unsigned char direct[48 << 10];
	Launch *l = oxemu_running;

	return l != NULL ? l->shmem + l->cluster->static_off : direct;
}

/* A module's global (a Constant<T> static, exported under its name): its
 * address in the .so is its "device" address; the size from the ELF
 * symbol. */
static int emu_module_global(const OxModule *m, const char *name,
                             OxDevPtr *ptr, size_t *size)
{
	void *p = m->handle != NULL ? dlsym(m->handle, name) : NULL;
	Dl_info info;
	const ElfW(Sym) *sym = NULL;

	if (p == NULL)
		return oxrt_set_error(OX_CUDA_NOT_FOUND, "ox_module_global(%s): "
		                      "CUDA_ERROR_NOT_FOUND (emulated: no symbol "
		                      "in %s)", name, m->path);
	if (ptr != NULL)
		*ptr = (OxDevPtr)(uintptr_t)p;
	if (size != NULL) {
		*size = 0;
		if (dladdr1(p, &info, (void **)&sym, RTLD_DL_SYMENT) != 0 &&
		    sym != NULL)
			*size = sym->st_size;
	}
	return 0;
}

/* CUDA's vprintf: fmt is C's printf format, args the arguments packed
 * each at a multiple of its size (%c %d %i %u %x %X %o: 4 bytes, with l
 * or ll: 8; floating point: 8, a double; %p %s: 8, an address). Prints
 * to stdout at once; returns the number of arguments, or -1 on a format
 * it does not know. */
int __oxide_host_vprintf(const char *fmt, const unsigned char *args)
{
	size_t off = 0;
	int nargs = 0;

	for (const char *s = fmt; *s != '\0'; s++) {
		char spec[64];
		size_t n = 0;
		int longs = 0, star = 0;
		if (*s != '%') {
			putchar(*s);
			continue;
		}
		if (s[1] == '%') {
			putchar('%');
			s++;
			continue;
		}
		spec[n++] = *s++;
		while (*s != '\0' && strchr("-+ #0123456789.*hlLqjzt", *s) != NULL) {
			if (*s == 'l' || *s == 'q' || *s == 'j' || *s == 'z' || *s == 't' || *s == 'L')
				longs++;
			else if (*s == '*')
				star++;
			if (n < sizeof spec - 2 && *s != 'h' && *s != 'l' && *s != 'q' &&
			    *s != 'j' && *s != 'z' && *s != 't' && *s != 'L')
				spec[n++] = *s;
			s++;
		}
		if (*s == '\0' || star) {
			fflush(stdout);
			return -1;
		}
		char conv = *s;
		unsigned size = strchr("fFeEgGaApsn", conv) != NULL || longs ? 8 : 4;
		off = (off + size - 1) / size * size;
		if (args == NULL) {
			fflush(stdout);
			return -1;
		}
		const unsigned char *a = args + off;
		off += size;
		nargs++;
		if (strchr("cdiuxXo", conv) != NULL && size == 8) {
			spec[n++] = 'l';
			spec[n++] = 'l';
		}
		spec[n++] = conv;
		spec[n] = '\0';
		if (strchr("fFeEgGaA", conv) != NULL) {
			double d;
			memcpy(&d, a, 8);
			printf(spec, d);
		} else if (conv == 'p' || conv == 's') {
			uint64_t u;
			memcpy(&u, a, 8);
			printf(spec, (void *)(uintptr_t)u);
		} else if (size == 8) {
			long long v;
			memcpy(&v, a, 8);
			printf(spec, v);
		} else if (strchr("cdiuxXo", conv) != NULL) {
			int v;
			memcpy(&v, a, 4);
			printf(spec, v);
		} else {
			fflush(stdout);
			return -1;
		}
	}
	fflush(stdout);
	return nargs;
}

/* ------------------------------------------------------ the backend */

/* Always there: nothing to open. */
static int emu_open(void)
{
	return 0;
}

static int emu_device_name(char *buf, int len)
{
	snprintf(buf, (size_t)len, "host CPU (oxrt emulation)");
	return 0;
}

/* One multiprocessor: the emulator runs one cluster at a time. */
static int emu_device_attribute(int *value, int attrib)
{
	if (attrib != OX_DEV_MULTIPROCESSOR_COUNT)
		return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_device_attribute(%d): the emulator reports only "
		                      "OX_DEV_MULTIPROCESSOR_COUNT", attrib);
	*value = 1;
	return 0;
}

static const unsigned *kernel_cluster(const OxFunc *f);

/* The cluster shape (__oxide_cluster_<K>, 0s: none); no other. */
static int emu_func_attribute(int *value, int attrib, const OxFunc *f)
{
	const unsigned *own = kernel_cluster(f);

	if (attrib >= OX_FUNC_REQUIRED_CLUSTER_WIDTH && attrib <= OX_FUNC_REQUIRED_CLUSTER_DEPTH) {
		*value = own != NULL ? (int)own[attrib - OX_FUNC_REQUIRED_CLUSTER_WIDTH] : 0;
		return 0;
	}
	return oxrt_set_error(OX_CUDA_INVALID_VALUE, "ox_func_attribute(%s): "
	                      "CUDA_ERROR_INVALID_VALUE (emulated: kernel "
	                      "attributes but the cluster shape exist only on the GPU)", f->name);
}

/* Any amount the program asks for is there: nothing to do. */
static int emu_func_set_max_dynamic_shared(const OxFunc *f, unsigned bytes)
{
	(void)f, (void)bytes;
	return 0;
}

static int emu_tensor_map_encode(OxTensorMap *map, const OxTensorMapDesc *d)
{
	EmuTensorMap m = {TMAP_MAGIC, 0, *d};

	memset(map->bytes, 0, sizeof map->bytes);
	memcpy(map->bytes, &m, sizeof m);
	return 0;
}

/* The kernel's #[kernel(cluster(..))] shape, or NULL. */
static const unsigned *kernel_cluster(const OxFunc *f)
{
	char sym[300];

	snprintf(sym, sizeof sym, "__oxide_cluster_%s", f->name);
	return f->module != NULL ? dlsym(f->module, sym) : NULL;
}

/* The cluster shape of a launch: the kernel's own (__oxide_cluster_K,
 * #[kernel(cluster(..))]), else the launch's (ox_launch_cluster; 0s:
 * none), else 1x1x1; checked as cuLaunchKernelEx does: at most 8 blocks
 * (the portable size), dividing the grid, the same as the kernel's. */
static int launch_cluster(const OxFunc *f, OxDim3 grid, OxDim3 given, Cluster *c)
{
	const unsigned *own = kernel_cluster(f);
	OxDim3 d = given;
	const char *why = NULL;

	if (own != NULL && given.x != 0 && (given.x != own[0] || given.y != own[1] || given.z != own[2]))
		why = "the kernel's #[kernel(cluster(..))] fixes another shape";
	if (own != NULL)
		d = (OxDim3){own[0], own[1], own[2]};
	c->explicit_dims = d.x != 0;
	if (d.x == 0)
		d = (OxDim3){1, 1, 1};
	if (why == NULL && (d.y == 0 || d.z == 0))
		why = "a cluster dimension is 0";
	else if (why == NULL && (unsigned long long)d.x * d.y * d.z > 8)
		why = "a cluster has at most 8 blocks (the portable size)";
	else if (why == NULL && (grid.x % d.x || grid.y % d.y || grid.z % d.z))
		why = "the grid is not a whole number of clusters";
	c->dim = d;
	if (why == NULL)
		return 0;
	return oxrt_set_error(OX_CUDA_INVALID_CLUSTER_SIZE, "ox_launch(%s in %s, grid %ux%ux%u, cluster %ux%ux%u): "
	                      "CUDA_ERROR_INVALID_CLUSTER_SIZE (emulated: %s)", f->name, f->path, grid.x, grid.y,
	                      grid.z, d.x, d.y, d.z, why);
}

/* The whole grid runs before it returns (see oxemu.c's opening comment). */
static int emu_launch(const OxFunc *f, OxDim3 grid, OxDim3 block, OxDim3 cluster,
                      unsigned shared_bytes, void *stream, void **args)
{
	Cluster c;
	const unsigned *stat;

	(void)stream;                 /* runs now: see emu_stream_create */
	memset(&c, 0, sizeof c);
	if (oxemu_check_dims(f, grid, block) != 0 || launch_cluster(f, grid, cluster, &c) != 0)
		return -1;
	stat = f->module != NULL ? dlsym(f->module, "__oxide_static_shared_bytes") : NULL;
	return oxemu_run_launch(f, &c, grid, block, shared_bytes, stat != NULL ? *stat : 0, args);
}

enum { EMU_COOP_BLOCKS = 1024 };

/* A cooperative launch: the whole grid runs together, as one group of
 * blocks (Cluster.coop), so that grid::sync() works; at most
 * EMU_COOP_BLOCKS blocks (what the emulator reports as co-resident). */
static int emu_launch_cooperative(const OxFunc *f, OxDim3 grid, OxDim3 block, unsigned shared_bytes,
                                  void *stream, void **args)
{
	Cluster c;
	const unsigned *stat;
	unsigned long long n = (unsigned long long)grid.x * grid.y * grid.z;

	memset(&c, 0, sizeof c);
	if (oxemu_check_dims(f, grid, block) != 0)
		return -1;
	if (kernel_cluster(f) != NULL)
		return oxrt_set_error(OX_CUDA_NOT_SUPPORTED, "ox_launch_cooperative(%s in %s): CUDA_ERROR_NOT_SUPPORTED "
		                      "(emulated: a cooperative launch of a kernel with #[kernel(cluster(..))] is not "
		                      "emulated yet)", f->name, f->path);
	if (n > EMU_COOP_BLOCKS)
		return oxrt_set_error(OX_CUDA_COOPERATIVE_LAUNCH_TOO_LARGE, "ox_launch_cooperative(%s in %s, grid "
		                      "%ux%ux%u): CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE (emulated: %llu blocks, at most "
		                      "%u can be co-resident)", f->name, f->path, grid.x, grid.y, grid.z, n,
		                      (unsigned)EMU_COOP_BLOCKS);
	(void)stream;   /* work on a stream runs when it is issued */
	c.dim = grid;
	c.coop = 1;
	stat = f->module != NULL ? dlsym(f->module, "__oxide_static_shared_bytes") : NULL;
	return oxemu_run_launch(f, &c, grid, block, shared_bytes, stat != NULL ? *stat : 0, args);
}

/* The names of the codes the emulator reports (no driver needed). */
static const char *emu_error_name(int code)
{
	static const struct {
		int code;
		const char *name;
	} names[] = {
		{OX_CUDA_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"},
		{OX_CUDA_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY"},
		{OX_CUDA_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE"},
		{OX_CUDA_NOT_FOUND, "CUDA_ERROR_NOT_FOUND"},
		{OX_CUDA_ASSERT, "CUDA_ERROR_ASSERT"},
		{OX_CUDA_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED"},
		{OX_CUDA_INVALID_CLUSTER_SIZE, "CUDA_ERROR_INVALID_CLUSTER_SIZE"},
		{OX_CUDA_COOPERATIVE_LAUNCH_TOO_LARGE, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"},
		{OX_CUDA_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED"},
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].code == code)
			return names[i].name;
	return NULL;
}

const OxBackend oxemu_backend = {
	.name = "host emulation",
	.device = "host emulation",
	.absent = "no emulator",
	.absent_hint = "",
	.open = emu_open,
	.close = emu_close,
	.device_name = emu_device_name,
	.device_attribute = emu_device_attribute,
	.module_load = emu_module_load,
	.module_load_data = emu_module_load_data,
	.module_unload = emu_module_unload,
	.function = emu_function,
	.func_attribute = emu_func_attribute,
	.func_set_max_dynamic_shared = emu_func_set_max_dynamic_shared,
	.tensor_map_encode = emu_tensor_map_encode,
	.module_global = emu_module_global,
	.mem_alloc = emu_alloc,
	.mem_free = emu_free,
	.copy_to_device = emu_copy_to_device,
	.copy_from_device = emu_copy_from_device,
	.memset8 = emu_memset8,
	.memset32 = emu_memset32,
	.host_alloc = emu_host_alloc,
	.host_free = emu_host_free,
	.stream_create = emu_stream_create,
	.stream_destroy = emu_stream_destroy,
	.stream_synchronize = emu_stream_synchronize,
	.copy_to_device_async = emu_copy_to_device_async,
	.copy_from_device_async = emu_copy_from_device_async,
	.launch = emu_launch,
	.synchronize = oxemu_synchronize,
	.set_stack_size = emu_set_stack_size,
	.stack_size = emu_stack_size,
	.event_create = emu_event_create,
	.event_record = emu_event_record,
	.event_elapsed_ms = emu_event_elapsed_ms,
	.event_destroy = emu_event_destroy,
	.error_name = emu_error_name,
	.launch_cooperative = emu_launch_cooperative,
	.device_count = emu_device_count,
	.device_select = emu_device_select,
	.peer_enable = emu_peer_enable,
	.copy_peer = emu_copy_peer,
};
