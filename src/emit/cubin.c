/* cubin.c: PTX -> cubin, by the toolkit's ptxas (whole-program) or, without
 * one, in-process through nvJitLink.
 *
 * Why ptxas first: nvJitLink is a linker, and it compiles its PTX input as
 * relocatable code (ptxas -c; its SASS is byte for byte `ptxas -c`'s).  In
 * that mode ptxas's own subroutines — the slow path of an IEEE f32 or f64
 * division, div.rn — are separate functions called through the ABI, so
 * every value live across such a call needs a callee-saved register:
 * softmax_rows (bench_kernels: four div.rn.f32 per vector) took 40
 * registers through nvJitLink and 32 through ptxas, 6 blocks of 256
 * threads per SM instead of 8 (BENCHMARKS.md, issue 11).  A module of
 * oxidec's is the whole program (no device code is linked to it), so the
 * cubin is ptxas's whole-program compilation at its default -O3: what
 * nvcc does without -rdc, and what the driver's JIT does with a .ptx.
 *
 * ptxas is $OXIDEC_PTXAS (a name without '/' looked up in PATH), else
 * $CUDA_HOME/bin/ptxas (CUDA_HOME as for
 * libdevice: the environment's, else the build's); OXIDEC_PTXAS=none, or
 * no executable there, takes nvJitLink.  ptxas runs as a child
 * (posix_spawn) on unlinked temporary files — the PTX on its standard
 * input, its messages on standard output and error, the cubin through
 * /dev/fd/N (Linux) — so no file is left behind, whatever ends oxidec.
 *
 * libnvJitLink is opened with dlopen at the first use, not linked: oxidec
 * builds and emits PTX on machines without the CUDA toolkit, and only
 * --emit=cubin needs it.  The few declarations below mirror nvJitLink.h
 * (CUDA 13) so the build needs no CUDA include path; the enum values used
 * are part of nvJitLink's stable ABI.  The unversioned entry points are
 * exported by libnvJitLink.so.13 alongside the __nvJitLink*_13_0 ones.
 *
 * cubin_ptxas_log compiles for ptxas's report alone (stack frames, see
 * stack.c), by the same compiler as the cubin: it never fails the
 * compilation, so it runs quietly. */
#include "emit.h"

#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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

static uint8_t *jl_cubin(const char *ptx, size_t len, const char *arch, size_t *out_len)
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
static char *jl_log(const char *ptx, size_t len, const char *arch)
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

/* ------------------------------------------------------------ ptxas */

/* The ptxas to run, in buf or the environment's; NULL for nvJitLink. */
static const char *ptxas_path(char *buf, size_t n)
{
	const char *p = getenv("OXIDEC_PTXAS");
	if (p && *p)
		return strcmp(p, "none") ? p : NULL;
	const char *home = getenv("CUDA_HOME");
	snprintf(buf, n, "%s/bin/ptxas", home && *home ? home : CUDA_HOME);
	return access(buf, X_OK) == 0 ? buf : NULL;
}

/* All of f from its start, malloc'd with a terminating 0 (*n without it);
 * NULL when it cannot be read. */
static char *read_all(FILE *f, size_t *n)
{
	struct stat st;
	if (fflush(f) || fstat(fileno(f), &st) || fseek(f, 0, SEEK_SET))
		return NULL;
	char *s = xmalloc((size_t)st.st_size + 1);
	size_t got = fread(s, 1, (size_t)st.st_size, f);
	if (got != (size_t)st.st_size) {
		free(s);
		return NULL;
	}
	s[got] = 0;
	if (n)
		*n = got;
	return s;
}

typedef struct {
	int status;         /* ptxas's exit status; -1: it did not run or was killed */
	char *log;          /* its standard output and error, malloc'd ("" at least) */
	uint8_t *cubin;     /* malloc'd when it succeeded and one was asked for */
	size_t len;
	const char *why;    /* when status is -1: what failed */
	int err;            /* and its errno, 0 if none */
	int signal;         /* the signal that killed ptxas, 0 if none */
} PtxasRun;

/* exe -arch=ARCH [-v] -o /dev/fd/N - < ptx: the cubin when want_cubin,
 * else -o /dev/null. */
static PtxasRun run_ptxas(const char *exe, const char *ptx, size_t len, const char *arch, bool verbose,
                          bool want_cubin)
{
	PtxasRun r = {.status = -1, .why = "cannot create a temporary file"};
	FILE *in = tmpfile(), *log = tmpfile(), *out = want_cubin ? tmpfile() : NULL;
	if (!in || !log || (want_cubin && !out) || fwrite(ptx, 1, len, in) != len || fflush(in) ||
	    fseek(in, 0, SEEK_SET)) {
		r.err = errno;
		goto done;
	}
	char opt_arch[48], opt_out[48];
	snprintf(opt_arch, sizeof opt_arch, "-arch=%s", arch ? arch : "sm_90");
	if (out)
		snprintf(opt_out, sizeof opt_out, "/dev/fd/%d", fileno(out));
	else
		snprintf(opt_out, sizeof opt_out, "/dev/null");
	char *argv[8];
	int argc = 0;
	argv[argc++] = (char *)exe;
	argv[argc++] = opt_arch;
	if (verbose)
		argv[argc++] = "-v";
	argv[argc++] = "-o";
	argv[argc++] = opt_out;
	argv[argc++] = "-";
	argv[argc] = NULL;
	posix_spawn_file_actions_t fa;
	r.why = "cannot start ptxas";
	if ((r.err = posix_spawn_file_actions_init(&fa)))
		goto done;
	pid_t pid;
	int err = posix_spawn_file_actions_adddup2(&fa, fileno(in), 0);
	if (!err)
		err = posix_spawn_file_actions_adddup2(&fa, fileno(log), 1);
	if (!err)
		err = posix_spawn_file_actions_adddup2(&fa, fileno(log), 2);
	if (!err)
		err = (strchr(exe, '/') ? posix_spawn : posix_spawnp)(&pid, exe, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		r.err = err;
		goto done;
	}
	int ws;
	pid_t w;
	while ((w = waitpid(pid, &ws, 0)) < 0 && errno == EINTR)
		;
	r.why = "ptxas was killed by a signal";
	if (w == pid && WIFSIGNALED(ws))
		r.signal = WTERMSIG(ws);
	if (w != pid || !WIFEXITED(ws))
		goto done;
	r.status = WEXITSTATUS(ws);
	if (r.status == 0 && out && !(r.cubin = (uint8_t *)read_all(out, &r.len))) {
		r.status = -1;
		r.why = "cannot read ptxas's cubin";
		r.err = errno;
	}
done:
	if (log)
		r.log = read_all(log, NULL);
	if (!r.log) {
		r.log = xmalloc(1);
		r.log[0] = 0;
	}
	if (in)
		fclose(in);
	if (log)
		fclose(log);
	if (out)
		fclose(out);
	return r;
}

uint8_t *cubin_from_ptx(const char *ptx, size_t len, const char *arch, size_t *out_len)
{
	char buf[1024];
	const char *exe = ptxas_path(buf, sizeof buf);
	if (!exe)
		return jl_cubin(ptx, len, arch, out_len);
	PtxasRun r = run_ptxas(exe, ptx, len, arch, false, true);
	if (r.status != 0 || !r.cubin || r.len == 0) {
		if (r.signal)
			diag_error(OX_BACKEND, "oxidec", "ptxas (%s) crashed (signal %d) on this PTX: a ptxas bug; "
			           "docs/DESIGN.md \"ptxas hazards\" lists those oxidec avoids; write the PTX (-o K.ptx) and "
			           "reduce it with tools/ptx-reduce.py to report it; -O3 or OXIDEC_PTXAS=none (nvJitLink) may "
			           "avoid it", exe, r.signal);
		else if (r.status < 0)
			diag_error(OX_ENV, "oxidec", "%s (%s%s%s); set OXIDEC_PTXAS to a ptxas, or to none for nvJitLink",
			           r.why, exe, r.err ? ": " : "", r.err ? strerror(r.err) : "");
		else
			diag_error(OX_BACKEND, "oxidec", "ptxas (%s) failed (exit status %d)%s%s", exe, r.status,
			           *r.log ? ":\n" : "", r.log);
		free(r.cubin);
		free(r.log);
		return NULL;
	}
	free(r.log);
	if (out_len)
		*out_len = r.len;
	return r.cubin;
}

char *cubin_ptxas_log(const char *ptx, size_t len, const char *arch)
{
	char buf[1024];
	const char *exe = ptxas_path(buf, sizeof buf);
	if (!exe)
		return jl_log(ptx, len, arch);
	PtxasRun r = run_ptxas(exe, ptx, len, arch, true, false);
	if (r.status != 0) {
		free(r.log);
		return NULL;
	}
	return r.log;
}
