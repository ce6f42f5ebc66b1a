/* cubin.c: PTX -> cubin in-process through nvJitLink.
 *
 * libnvJitLink is opened with dlopen at the first use, not linked: oxidec
 * builds and emits PTX on machines without the CUDA toolkit, and only
 * --emit=cubin needs it.  The few declarations below mirror nvJitLink.h
 * (CUDA 13) so the build needs no CUDA include path; the enum values used
 * are part of nvJitLink's stable ABI.  The unversioned entry points are
 * exported by libnvJitLink.so.13 alongside the __nvJitLink*_13_0 ones.
 *
 * cubin_ptxas_log compiles for ptxas's report alone (stack frames, see
 * stack.c): it never fails the compilation, so it loads the library
 * quietly. */
#include "emit.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#ifndef CUDA_HOME
#define CUDA_HOME "/usr/local/cuda"
#endif

typedef int JlResult;               /* nvJitLinkResult: 0 = success */
typedef struct JlLink *JlHandle;    /* nvJitLinkHandle */
enum { JL_INPUT_PTX = 2 };          /* NVJITLINK_INPUT_PTX */

typedef struct {
	JlResult (*create)(JlHandle *, uint32_t, const char **);
	JlResult (*destroy)(JlHandle *);
	JlResult (*add_data)(JlHandle, int, const void *, size_t, const char *);
	JlResult (*complete)(JlHandle);
	JlResult (*cubin_size)(JlHandle, size_t *);
	JlResult (*cubin)(JlHandle, void *);
	JlResult (*error_log_size)(JlHandle, size_t *);
	JlResult (*error_log)(JlHandle, char *);
	JlResult (*info_log_size)(JlHandle, size_t *);
	JlResult (*info_log)(JlHandle, char *);
} JitLink;

static void *open_library(void)
{
	static const char *paths[] = {
		CUDA_HOME "/lib64/libnvJitLink.so.13",
		"libnvJitLink.so.13",
		"libnvJitLink.so",
	};
	for (size_t i = 0; i < countof(paths); i++) {
		void *h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
		if (h)
			return h;
	}
	return NULL;
}

/* Function pointers come out of dlsym as void *; ISO C has no cast between
 * object and function pointers, so copy the bits (what POSIX guarantees). */
static bool load_symbol(void *lib, const char *name, void *slot)
{
	void *p = dlsym(lib, name);
	if (!p)
		return false;
	memcpy(slot, &p, sizeof p);
	return true;
}

/* The library's entry points; NULL when it cannot be loaded, after a
 * diag_error unless quiet. */
static const JitLink *jitlink(bool quiet)
{
	static JitLink jl;
	static bool loaded;
	if (loaded)
		return &jl;
	void *lib = open_library();
	if (!lib && quiet)
		return NULL;
	if (!lib) {
		diag_error(OX_ENV, "oxidec", "cannot load libnvJitLink.so.13 (looked in %s/lib64 and the loader path: %s); "
		           "cubin output needs the CUDA 13 toolkit — emit PTX instead, or set CUDA_HOME/LD_LIBRARY_PATH",
		           CUDA_HOME, dlerror());
		return NULL;
	}
	bool ok = load_symbol(lib, "nvJitLinkCreate", &jl.create) && load_symbol(lib, "nvJitLinkDestroy", &jl.destroy) &&
	          load_symbol(lib, "nvJitLinkAddData", &jl.add_data) &&
	          load_symbol(lib, "nvJitLinkComplete", &jl.complete) &&
	          load_symbol(lib, "nvJitLinkGetLinkedCubinSize", &jl.cubin_size) &&
	          load_symbol(lib, "nvJitLinkGetLinkedCubin", &jl.cubin) &&
	          load_symbol(lib, "nvJitLinkGetErrorLogSize", &jl.error_log_size) &&
	          load_symbol(lib, "nvJitLinkGetErrorLog", &jl.error_log) &&
	          load_symbol(lib, "nvJitLinkGetInfoLogSize", &jl.info_log_size) &&
	          load_symbol(lib, "nvJitLinkGetInfoLog", &jl.info_log);
	if (!ok && quiet) {
		dlclose(lib);
		return NULL;
	}
	if (!ok) {
		diag_error(OX_ENV, "oxidec", "libnvJitLink lacks an expected entry point (%s)", dlerror());
		dlclose(lib);
		return NULL;
	}
	loaded = true;
	return &jl;
}

static void report(const JitLink *jl, JlHandle h, const char *step, JlResult r)
{
	size_t n = 0;
	char *log = NULL;
	if (h && jl->error_log_size(h, &n) == 0 && n > 1) {
		log = xmalloc(n + 1);
		if (jl->error_log(h, log) != 0)
			log[0] = 0;
		log[n] = 0;
	}
	diag_error(OX_BACKEND, "oxidec", "nvJitLink %s failed (error %d)%s%s", step, r, log && *log ? ":\n" : "",
	           log ? log : "");
	free(log);
}

static uint8_t *link_ptx(const JitLink *jl, JlHandle h, const char *ptx, size_t len, size_t *out_len)
{
	JlResult r = jl->add_data(h, JL_INPUT_PTX, ptx, len, "oxidec.ptx");
	if (r) {
		report(jl, h, "reading PTX", r);
		return NULL;
	}
	if ((r = jl->complete(h))) {
		report(jl, h, "compiling PTX", r);
		return NULL;
	}
	size_t n = 0;
	if ((r = jl->cubin_size(h, &n)) || n == 0) {
		report(jl, h, "sizing the cubin", r);
		return NULL;
	}
	uint8_t *cubin = xmalloc(n);
	if ((r = jl->cubin(h, cubin))) {
		report(jl, h, "copying the cubin", r);
		free(cubin);
		return NULL;
	}
	*out_len = n;
	return cubin;
}

uint8_t *cubin_from_ptx(const char *ptx, size_t len, const char *arch, size_t *out_len)
{
	const JitLink *jl = jitlink(false);
	if (!jl)
		return NULL;
	char opt_arch[48];
	snprintf(opt_arch, sizeof opt_arch, "-arch=%s", arch ? arch : "sm_90");
	const char *opts[] = {opt_arch};
	JlHandle h = NULL;
	JlResult r = jl->create(&h, 1, opts);
	if (r) {
		report(jl, NULL, "setup for -arch", r);
		return NULL;
	}
	size_t n = 0;
	uint8_t *cubin = link_ptx(jl, h, ptx, len, &n);
	jl->destroy(&h);
	if (cubin && out_len)
		*out_len = n;
	return cubin;
}

/* ptxas's -v report of the PTX as nvJitLink compiles it for arch (the
 * "Function properties for NAME" lines), malloc'd; NULL when nvJitLink is
 * missing or fails, without a diagnostic. */
char *cubin_ptxas_log(const char *ptx, size_t len, const char *arch)
{
	const JitLink *jl = jitlink(true);
	if (!jl)
		return NULL;
	char opt_arch[48];
	snprintf(opt_arch, sizeof opt_arch, "-arch=%s", arch ? arch : "sm_90");
	const char *opts[] = {opt_arch, "-Xptxas=-v"};
	JlHandle h = NULL;
	if (jl->create(&h, 2, opts))
		return NULL;
	char *log = NULL;
	size_t n = 0;
	if (!jl->add_data(h, JL_INPUT_PTX, ptx, len, "oxidec.ptx") && !jl->complete(h) && !jl->info_log_size(h, &n) &&
	    n > 1) {
		log = xmalloc(n + 1);
		if (jl->info_log(h, log))
			log[0] = 0;
		log[n] = 0;
	}
	jl->destroy(&h);
	return log;
}
