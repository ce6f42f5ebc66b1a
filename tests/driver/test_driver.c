/* tests/driver/test_driver.c: oxrt's driver backend (src/runtime/oxcuda.c)
 * without a GPU, against tests/driver/fake_libcuda.c (found as
 * libcuda.so.1 through LD_LIBRARY_PATH). Checks that the API reaches the
 * driver through the backend a .ptx module picks, with the arguments and
 * the error messages of the driver path, and that every call on a stream
 * hands the driver that stream's handle (NULL for the default stream).
 *   test_driver MODULE.ptx BAD.ptx EMULATED.so
 * Prints PASS/FAIL lines; exits 1 on a failure. Run by tests/driver/run.sh. */
#define _POSIX_C_SOURCE 200809L
#include "../../src/runtime/oxrt.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failed;

static void check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", what);
	if (!ok) {
		printf("    last error: %s\n", ox_error());
		failed = 1;
	}
}

static int says(const char *text)
{
	return strstr(ox_error(), text) != NULL;
}

/* what the stand-in driver got at the last launch */
static const unsigned *last_launch(void)
{
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	const unsigned *(*get)(void) = NULL;
	void *sym = lib != NULL ? dlsym(lib, "fake_last_launch") : NULL;

	memcpy(&get, &sym, sizeof get);
	return get != NULL ? get() : NULL;
}

/* the stand-in driver's fake_NAME(), a function without arguments */
static void *fake_call(const char *name)
{
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	void *sym = lib != NULL ? dlsym(lib, name) : NULL;
	void *(*get)(void) = NULL;

	memcpy(&get, &sym, sizeof get);
	return get != NULL ? get() : (void *)"missing";
}

static void fail_next_sync(void)
{
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	void *sym = lib != NULL ? dlsym(lib, "fake_fail_next_sync") : NULL;
	void (*fail)(void) = NULL;

	memcpy(&fail, &sym, sizeof fail);
	if (fail != NULL)
		fail();
}

static void modules(OxModule *m, const char *good, const char *bad,
                    const char *so)
{
	OxModule b, e;
	char name[64];
	size_t stack = 0;

	int sms = 0;

	check(ox_init() == 0 && ox_device_name(name, sizeof name) == 0 &&
	      strcmp(name, "Fake GPU 0") == 0, "ox_init opens the driver");
	check(ox_device_attribute(&sms, OX_DEV_MULTIPROCESSOR_COUNT) == 0 && sms == 132 &&
	      ox_device_attribute(&sms, 1) != 0 && says("cuDeviceGetAttribute") && says("attribute 1"),
	      "ox_device_attribute: the driver's multiprocessor count; its error for another attribute");
	check(ox_module_load(&b, bad) != 0 && says("cuModuleLoadDataEx") &&
	      says("JIT error log:\nptxas fatal: the module says bad") &&
	      strcmp(ox_error_name(), "CUDA_ERROR_INVALID_PTX") == 0,
	      "a module the JIT rejects: the driver's error and the JIT log");
	check(ox_module_load(m, good) == 0, "a .ptx module loads");
	check(ox_stack_size(&stack) == 0 && stack == 4096,
	      "loading raises the stack limit to the kernels' local size");
	check(ox_module_load(&e, so) != 0 && says("cannot be mixed") &&
	      says("already uses the GPU"),
	      "an emulated module after a GPU module is refused");
}

static void kernels(const OxModule *m, OxFunc *f)
{
	OxFunc g;
	OxDevPtr gp = 0;
	size_t size = 0;
	int value = 0;

	check(ox_function(&g, m, "nosuch") != 0 &&
	      strcmp(ox_error_name(), "CUDA_ERROR_NOT_FOUND") == 0 &&
	      says("kernels in this module: k"),
	      "a missing kernel: NOT_FOUND, naming the module's kernels");
	check(ox_function(f, m, "k") == 0, "ox_function finds k");
	check(ox_func_attribute(&value, OX_FUNC_MAX_THREADS_PER_BLOCK, f) == 0 &&
	      value == 7, "ox_func_attribute asks the driver");
	check(ox_module_global(m, "g", &gp, &size) == 0 && gp != 0 && size == 16,
	      "ox_module_global: the driver's address and size");
}

static void memory(void)
{
	OxDevPtr p = 0;
	unsigned v[2] = {1, 2}, out[2] = {0, 0};

	check(ox_alloc(&p, sizeof v) == 0 &&
	      ox_copy_to_device(p, v, sizeof v) == 0 &&
	      ox_memset32(p, 9, 1) == 0 && ox_memset8(p + 4, 3, 1) == 0 &&
	      ox_copy_from_device(out, p, sizeof out) == 0 && out[0] == 9 &&
	      out[1] == 3 && ox_free(p) == 0,
	      "alloc, copies, memsets and free reach the driver");
	check(ox_alloc(&p, 0) != 0 && says("cuMemAlloc_v2(0 bytes)") &&
	      ox_error_code() == 1, "a failed allocation: the driver's error");
}

static void launches(const OxFunc *f)
{
	const unsigned want[10] = {3, 2, 1, 64, 2, 1, 128, 0, 0, 0};
	const unsigned want_cluster[10] = {4, 2, 1, 32, 1, 1, 0, 2, 2, 1};
	const unsigned *got;
	OxEvent a, b;
	float ms = 0;

	check(ox_launch_sync(f, ox_dim(3, 2, 1), ox_dim(64, 2, 1), 128, NULL) == 0 &&
	      (got = last_launch()) != NULL && memcmp(got, want, sizeof want) == 0,
	      "ox_launch_sync passes grid, block and shared bytes to the driver");
	check(ox_launch_cluster(f, ox_dim(4, 2, 1), ox_dim(32, 1, 1), ox_dim(2, 2, 1), 0, NULL) == 0 &&
	      (got = last_launch()) != NULL && memcmp(got, want_cluster, sizeof want_cluster) == 0,
	      "ox_launch_cluster: cuLaunchKernelEx with the cluster dimension attribute");
	check(ox_launch_cluster(f, ox_dim(4, 4, 1), ox_dim(32, 1, 1), ox_dim(4, 4, 1), 0, NULL) != 0 &&
	      ox_error_code() == 912 && says("cuLaunchKernelEx(k in") && says("cluster 4x4x1"),
	      "a cluster launch the driver refuses names the kernel and the cluster");
	check(ox_launch(f, ox_dim(1, 1, 1), ox_dim(1024, 2, 1), 0, NULL) != 0 &&
	      says("cuLaunchKernel(k in") && says("block 1024x2x1"),
	      "a launch the driver refuses names the kernel and the launch");
	fail_next_sync();
	check(ox_launch_sync(f, ox_dim(1, 1, 1), ox_dim(1, 1, 1), 0, NULL) != 0 &&
	      ox_error_is_trap() && says("cuCtxSynchronize(after kernel k in") &&
	      says("most likely it trapped"),
	      "a kernel that fails: a trap, blamed on the kernel");
	check(ox_synchronize() == 0 && ox_event_create(&a) == 0 &&
	      ox_event_create(&b) == 0 && ox_event_record(&a) == 0 &&
	      ox_event_record(&b) == 0 &&
	      ox_event_elapsed_ms(&ms, &a, &b) == 0 && ms == 1.5f,
	      "ox_synchronize and events reach the driver");
	ox_event_destroy(&a);
	ox_event_destroy(&b);
}

/* Every call with a stream hands the driver that stream's handle, and
 * the default stream (NULL) as CUstream 0. */
static void streams(const OxFunc *f)
{
	OxStream s, t;
	OxEvent e;
	OxDevPtr p = 0;
	unsigned *pinned = NULL;
	int live = 0;

	check(ox_stream_create(&s) == 0 && ox_stream_create(&t) == 0 && s.handle != NULL &&
	      s.handle != t.handle, "ox_stream_create: cuStreamCreate, two distinct streams");
	check(ox_host_alloc((void **)&pinned, 16) == 0 && pinned != NULL && ox_alloc(&p, 16) == 0,
	      "ox_host_alloc: cuMemHostAlloc");
	pinned[0] = 41;
	check(ox_copy_to_device_async(p, pinned, 4, &s) == 0 && fake_call("fake_last_stream") == s.handle &&
	      ox_copy_from_device_async(pinned + 1, p, 4, &t) == 0 && fake_call("fake_last_stream") == t.handle &&
	      pinned[1] == 41, "async copies: cuMemcpy{HtoD,DtoH}Async_v2 get the stream");
	check(ox_launch_on(f, ox_dim(1, 1, 1), ox_dim(32, 1, 1), 0, &t, NULL) == 0 &&
	      fake_call("fake_last_stream") == t.handle && ox_launch(f, ox_dim(1, 1, 1), ox_dim(32, 1, 1), 0, NULL) == 0 &&
	      fake_call("fake_last_stream") == NULL, "ox_launch_on: cuLaunchKernel's hStream; ox_launch: the default stream");
	check(ox_launch_cluster_on(f, ox_dim(2, 1, 1), ox_dim(32, 1, 1), ox_dim(2, 1, 1), 0, &s, NULL) == 0 &&
	      fake_call("fake_last_stream") == s.handle, "ox_launch_cluster_on: cuLaunchKernelEx's config.hStream");
	check(ox_event_create(&e) == 0 && ox_event_record_on(&e, &t) == 0 && fake_call("fake_last_stream") == t.handle &&
	      ox_event_record(&e) == 0 && fake_call("fake_last_stream") == NULL,
	      "ox_event_record_on: cuEventRecord with the stream; ox_event_record: the default stream");
	ox_event_destroy(&e);
	check(ox_stream_synchronize(&s) == 0 && fake_call("fake_last_stream") == s.handle,
	      "ox_stream_synchronize: cuStreamSynchronize of the stream");
	fail_next_sync();
	check(ox_stream_synchronize(&t) != 0 && ox_error_is_trap() && says("cuStreamSynchronize(stream)"),
	      "a failure on a stream is reported by its synchronization");
	live = (int)(intptr_t)fake_call("fake_streams_live");
	check(live == 2 && ox_stream_destroy(&s) == 0 && ox_stream_destroy(&t) == 0 && s.handle == NULL &&
	      (int)(intptr_t)fake_call("fake_streams_live") == 0, "ox_stream_destroy: cuStreamDestroy_v2");
	check(ox_host_free(pinned) == 0 && ox_free(p) == 0, "ox_host_free: cuMemFreeHost");
}

/* ---- cooperative launches: cuLaunchCooperativeKernel, and the grid
 * refused before the driver sees it when more blocks than fit at once
 * (the stand-in: 132 multiprocessors x 8 blocks of 256 threads). */
static unsigned coop_count(void)
{
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	void *sym = lib != NULL ? dlsym(lib, "fake_cooperative_launches") : NULL;
	unsigned (*get)(void) = NULL;

	memcpy(&get, &sym, sizeof get);
	return get != NULL ? get() : 0;
}

static void cooperative(const OxFunc *f)
{
	const unsigned want[10] = {1056, 1, 1, 256, 1, 1, 64, 0, 0, 0};
	const unsigned *got;
	unsigned before = coop_count();

	check(ox_launch_cooperative(f, ox_dim(1056, 1, 1), ox_dim(256, 1, 1), 64, NULL) == 0 &&
	      ox_synchronize() == 0 && coop_count() == before + 1 && (got = last_launch()) != NULL &&
	      memcmp(got, want, sizeof want) == 0,
	      "ox_launch_cooperative: cuLaunchCooperativeKernel with grid, block and shared bytes");
	check(ox_launch_cooperative(f, ox_dim(1057, 1, 1), ox_dim(256, 1, 1), 0, NULL) != 0 &&
	      ox_error_code() == 720 && coop_count() == before + 1 && says("CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE") &&
	      says("1057 blocks, but at most 1056") && says("k in"),
	      "a cooperative grid larger than can be co-resident is refused, saying how many fit");
}

/* Two devices: select, a module per device, a launch only where its
 * module's device is current, peer access and copies. */
static void devices(const char *ptx, const OxFunc *f0)
{
	OxModule m1;
	OxFunc f1;
	OxDevPtr a = 0, b = 0;
	int n = 0, x = 7, y = 0;

	check(ox_device_count(&n) == 0 && n == 2, "ox_device_count: cuDeviceGetCount (2 devices)");
	check(ox_device_select(2) != 0 && ox_error_code() == 101 && says("the machine has 2 devices") &&
	      ox_device_current() == 0, "selecting device 2 of 2 is refused, and device 0 stays current");
	check(ox_alloc(&a, sizeof x) == 0 && ox_copy_to_device(a, &x, sizeof x) == 0, "memory on device 0");
	check(ox_device_select(1) == 0 && ox_device_current() == 1 && fake_call("fake_current_device") == (void *)1,
	      "ox_device_select(1): device 1's primary context is current");
	check(ox_module_load(&m1, ptx) == 0 && m1.device == 1 && ox_function(&f1, &m1, "k") == 0 &&
	      f1.device == 1, "a module loaded while device 1 is current belongs to device 1");
	check(ox_launch(f0, ox_dim(1, 1, 1), ox_dim(1, 1, 1), 0, NULL) != 0 && ox_error_code() == 201 &&
	      says("CUDA_ERROR_INVALID_CONTEXT") && says("loaded on device 0, and device 1 is current"),
	      "a kernel of device 0's module does not launch while device 1 is current");
	check(ox_launch(&f1, ox_dim(1, 1, 1), ox_dim(1, 1, 1), 0, NULL) == 0 && ox_synchronize() == 0,
	      "device 1's kernel launches on device 1");
	check(ox_peer_enable(0) == 0 && ox_peer_enable(0) == 0, "ox_peer_enable(0) from device 1, twice");
	check(ox_peer_enable(1) != 0 && ox_error_code() == 101, "peer access to the current device is refused");
	check(ox_alloc(&b, sizeof y) == 0 && ox_copy_peer(b, 1, a, 0, sizeof x) == 0 &&
	      ox_copy_from_device(&y, b, sizeof y) == 0 && y == 7, "ox_copy_peer: device 0 to device 1 (cuMemcpyPeer)");
	ox_free(b);
	ox_module_unload(&m1);
	check(ox_device_select(0) == 0 && fake_call("fake_current_device") == (void *)0 &&
	      ox_launch(f0, ox_dim(1, 1, 1), ox_dim(1, 1, 1), 0, NULL) == 0 && ox_synchronize() == 0,
	      "back on device 0, its kernel launches again");
	ox_free(a);
}

int main(int argc, char **argv)
{
	OxModule m;
	OxFunc f;

	if (argc != 4) {
		fprintf(stderr, "usage: test_driver MODULE.ptx BAD.ptx EMULATED.so\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	modules(&m, argv[1], argv[2], argv[3]);
	kernels(&m, &f);
	memory();
	launches(&f);
	streams(&f);
	cooperative(&f);
	devices(argv[1], &f);
	ox_module_unload(&m);
	ox_shutdown();
	check(ox_launch(&f, ox_dim(1, 1, 1), ox_dim(1, 1, 1), 0, NULL) != 0 &&
	      says("ox_init() was not called"),
	      "after ox_shutdown a launch fails, saying why");
	return failed;
}
