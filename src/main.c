/* main.c: the oxidec driver.  Reads oxide-mir JSON, runs the seven stages
 * in a straight line, and writes the stage asked for:
 *
 *   1 json  2 mir  3 ssa  4 nvvm  5 llir  6 ll  7 ptx (or cubin)
 *
 * or, with --target=host, 7 obj: a native object file for the emulator
 * (src/runtime/oxemu.c) instead of PTX.  --emit=dot draws an IR stage
 * (--dot-stage, default mir) as a Graphviz graph instead of its text.
 *
 * Output goes to a temporary file renamed into place on success, so a
 * failed compilation never leaves a partial output file; the temporary
 * file is removed on every other way out too (errors, exit() inside a
 * library, internal errors, which abort, and fatal signals). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit/emit.h"
#include "frontend_json/frontend.h"
#include "ir/ir.h"
#include "ir/prims.h"
#include "passes/passes.h"
#include "target.h"
#include "util.h"

#ifndef OXIDEC_VERSION
#define OXIDEC_VERSION "0.0.0"
#endif

typedef enum {
	ST_NONE = -1, ST_JSON, ST_MIR, ST_SSA, ST_NVVM, ST_LLIR, ST_LL, ST_PTX, ST_CUBIN, ST_OBJ, ST_HEADER, ST_SIGNATURE, ST_RUST
} Stage;

static const char *const stage_names[] = {
	"json", "mir", "ssa", "nvvm", "llir", "ll", "ptx", "cubin", "obj", "header", "signature", "rust"
};

typedef struct {
	const char **inputs;
	int ninput;
	const char *output;
	Stage emit;
	Stage dump_after;
	bool dot;               /* --emit=dot: emit is the IR stage drawn as a graph */
	Stage dot_stage;        /* --dot-stage (ST_NONE: not given) */
	bool verbose;
	bool arch_given;
	size_t max_input;
	const Target *target;   /* --target: chosen here once, then the module's */
	EmitOptions eo;
} Options;

static const char usage[] =
"usage: oxidec [options] IN.mir.json... -o OUT\n"
"\n"
"Compile Rust GPU kernels, exported as oxide-mir JSON by mir-export, to PTX\n"
"or cubin, or to a host object file that runs them without a GPU (by\n"
"emulation, through the same oxrt API).  Several inputs are linked into one\n"
"module.\n"
"\n"
"options:\n"
"  -o FILE            output file ('-' for standard output); its extension\n"
"                     (.ptx .cubin .o .h .rs .ll .llir .nvvm .ssa .mir .json) picks\n"
"                     the stage when --emit is absent\n"
"  --emit=STAGE       stop after STAGE and write it: json, mir, ssa, nvvm,\n"
"                     llir, ll, ptx, cubin (nvptx), obj (host), header:\n"
"                     a C header of typed launchers for the kernels\n"
"                     (#include \"oxrt.h\"; man oxidec, HEADER), rust:\n"
"                     the same launchers in Rust, for a host crate that\n"
"                     depends on tools/oxide-host (man oxidec, RUST), or\n"
"                     signature: the kernels' entries and parameters as\n"
"                     JSON, for wrappers in other languages such as\n"
"                     examples/python's CuPy loader (man oxidec, SIGNATURE)\n"
"  --dump-after=STAGE print STAGE to standard error and continue\n"
"  --emit=dot         the control-flow graph of an IR stage as Graphviz (also\n"
"                     -o FILE.dot): a cluster per function, a node per block\n"
"                     with its ops; render with 'dot -Tsvg'\n"
"  --dot-stage=STAGE  the stage --emit=dot draws: mir (default), ssa, nvvm,\n"
"                     llir\n"
"  --target=TARGET    nvptx (default): PTX or cubin for the GPU; host: an\n"
"                     object file for this machine's CPU; link it with\n"
"                     'cc -shared OUT.o -o OUT.so -lm' and load OUT.so with\n"
"                     ox_module_load (host program linked with -rdynamic)\n"
"  --arch=sm_XX       target GPU architecture (default sm_90; nvptx only)\n"
"  -O0 -O1 -O2 -O3    LLVM optimization level (default -O3)\n"
"  -g                 full DWARF debug information (cuda-gdb, gdb): subprograms,\n"
"                     every instruction's Rust line, parameters (ptxas then\n"
"                     compiles without optimization, like nvcc -G); the default is\n"
"                     line information only: a .loc to the Rust file, line and\n"
"                     column on every PTX instruction (like nvcc -lineinfo), line\n"
"                     tables in a host object\n"
"  -g0                no debug or line information\n"
"  --max-input=MIB    largest input file read, in MiB (default 256)\n"
"  -v                 print the time each stage takes (wall clock, CPU)\n"
"  --help             show this help\n"
"  --version          show the version\n"
"\n"
"Exit status: 0 on success, 1 on a compile error or bad input (nothing is\n"
"written, no temporary file is left), 2 on a usage error.  Errors are\n"
"printed as 'WHERE: error[OXnnnn]: message', the code a stable class of\n"
"error (the list: man oxidec, DIAGNOSTICS).\n";

static Stage parse_stage(const char *s)
{
	for (size_t i = 0; i < countof(stage_names); i++)
		if (!strcmp(stage_names[i], s))
			return (Stage)i;
	return ST_NONE;
}

/* The stage an output file name asks for; anything else: PTX, or on the
 * host target the object file. */
static Stage stage_from_ext(const char *out, const Target *t)
{
	Stage dflt = t->kind == TARGET_HOST ? ST_OBJ : ST_PTX;
	const char *dot = strrchr(out, '.');
	if (!dot || strchr(dot, '/'))
		return dflt;
	if (!strcmp(dot, ".o"))
		return ST_OBJ;
	if (!strcmp(dot, ".h"))
		return ST_HEADER;
	if (!strcmp(dot, ".rs"))
		return ST_RUST;
	Stage s = parse_stage(dot + 1);
	return s == ST_NONE || (s == ST_OBJ && t->kind != TARGET_HOST) ? dflt : s;   /* x.obj stays PTX */
}

NORETURN static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "oxidec: error[OX%04d]: ", OX_USAGE);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\ntry 'oxidec --help'\n");
	exit(2);
}

static bool valid_arch(const char *a)
{
	if (strncmp(a, "sm_", 3) || !a[3])
		return false;
	for (const char *p = a + 3; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (p[1] == 0 && (*p == 'a' || *p == 'f'))))
			return false;
	return true;
}

/* Stages and options that belong to the other target are usage errors. */
static void check_target(const Options *o)
{
	bool host = o->target->kind == TARGET_HOST;
	Stage d = o->dump_after;
	if (host && (o->emit == ST_PTX || o->emit == ST_CUBIN))
		usage_error("%s output needs --target=nvptx (--target=host writes an object file: -o FILE.o)",
		            stage_names[o->emit]);
	if (host && d == ST_PTX)
		usage_error("%s", "--dump-after=ptx needs --target=nvptx");
	if (host && o->arch_given)
		usage_error("%s", "--arch applies to --target=nvptx only");
	if (!host && o->emit == ST_OBJ)
		usage_error("%s", "object output (--emit=obj, -o FILE.o) needs --target=host");
}

/* --emit=dot, or -o FILE.dot without --emit: stop after the stage drawn
 * (--dot-stage, default mir) and write it as a graph. */
static void dot_options(Options *o)
{
	const char *ext = strrchr(o->output, '.');
	if (o->emit == ST_NONE && ext && !strcmp(ext, ".dot"))
		o->dot = true;
	if (!o->dot) {
		if (o->dot_stage != ST_NONE)
			usage_error("%s", "--dot-stage needs --emit=dot (or -o FILE.dot)");
		return;
	}
	if (o->emit != ST_NONE)
		usage_error("--emit=dot and --emit=%s: one output only", stage_names[o->emit]);
	o->emit = o->dot_stage == ST_NONE ? ST_MIR : o->dot_stage;
}

static void parse_args(int argc, char **argv, Options *o)
{
	o->inputs = xmalloc(sizeof(char *) * (size_t)argc);
	o->emit = o->dump_after = o->dot_stage = ST_NONE;
	o->target = &target_nvptx;
	o->eo.arch = "sm_90";
	o->eo.opt_level = 3;
	o->eo.debug = EMIT_DEBUG_LINES;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			exit(0);
		} else if (!strcmp(a, "--version")) {
			printf("oxidec %s (oxide-mir format 1, LLVM NVPTX and host targets in-process)\n", OXIDEC_VERSION);
			exit(0);
		} else if (!strcmp(a, "-o")) {
			if (++i == argc)
				usage_error("%s needs a file name", "-o");
			o->output = argv[i];
		} else if (!strcmp(a, "--emit=dot")) {
			o->dot = true;
			o->emit = ST_NONE;
		} else if (!strncmp(a, "--dot-stage=", 12)) {
			if ((o->dot_stage = parse_stage(a + 12)) < ST_MIR || o->dot_stage > ST_LLIR)
				usage_error("bad --dot-stage '%s' (expected mir, ssa, nvvm or llir)", a + 12);
		} else if (!strncmp(a, "--emit=", 7)) {
			if ((o->emit = parse_stage(a + 7)) == ST_NONE)
				usage_error("unknown stage '%s'", a + 7);
		} else if (!strncmp(a, "--dump-after=", 13)) {
			if ((o->dump_after = parse_stage(a + 13)) == ST_NONE || o->dump_after >= ST_CUBIN)
				usage_error("unknown stage '%s'", a + 13);
		} else if (!strncmp(a, "--arch=", 7)) {
			if (!valid_arch(a + 7))
				usage_error("bad architecture '%s' (expected sm_XX, e.g. sm_90)", a + 7);
			o->eo.arch = a + 7;
			o->arch_given = true;
		} else if (!strncmp(a, "--target=", 9)) {
			if (!(o->target = target_find(a + 9)))
				usage_error("unknown target '%s' (expected nvptx or host)", a + 9);
		} else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) {
			o->eo.opt_level = a[2] - '0';
		} else if (!strcmp(a, "-g")) {
			o->eo.debug = EMIT_DEBUG_FULL;
		} else if (!strcmp(a, "-g0")) {
			o->eo.debug = EMIT_DEBUG_NONE;
		} else if (!strncmp(a, "--max-input=", 12)) {
			char *end;
			unsigned long long mib = strtoull(a + 12, &end, 10);
			if (end == a + 12 || *end || mib == 0 || mib > (SIZE_MAX >> 21))
				usage_error("bad --max-input '%s' (expected a number of MiB, at least 1)", a + 12);
			o->max_input = (size_t)mib << 20;
		} else if (!strcmp(a, "-v")) {
			o->verbose = true;
		} else if (a[0] == '-' && a[1]) {
			usage_error("unknown option '%s'", a);
		} else {
			o->inputs[o->ninput++] = a;
		}
	}
	if (!o->ninput)
		usage_error("%s", "no input files");
	if (!o->output)
		usage_error("%s", "no output file (-o FILE)");
	dot_options(o);
	if (o->emit == ST_NONE)
		o->emit = strcmp(o->output, "-") ? stage_from_ext(o->output, o->target)
		                                 : o->target->kind == TARGET_HOST ? ST_OBJ : ST_PTX;
	check_target(o);
}

/* ------------------------------------------------------------ output */

typedef struct {
	const char *path;
	char *tmp;
	FILE *f;
} Output;

/* The temporary output file while it exists: removed by the exit and
 * signal handlers below if the driver does not get to commit or abort. */
static char *volatile pending_tmp;

static void remove_pending(void)
{
	if (pending_tmp)
		unlink(pending_tmp);
}

/* Async-signal-safe: unlink, then die of the same signal (SA_RESETHAND
 * restored the default action, SA_NODEFER lets raise deliver it now). */
static void on_fatal_signal(int sig)
{
	remove_pending();
	raise(sig);
}

static void install_cleanup(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL };
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < countof(sigs); i++) {
		struct sigaction old;
		sigaction(sigs[i], NULL, &old);
		if (old.sa_handler != SIG_IGN)     /* a signal ignored by who started us stays ignored */
			sigaction(sigs[i], &sa, NULL);
	}
	atexit(remove_pending);     /* an exit() inside LLVM, say */
}

/* mkstemp and registering its name happen with signals blocked, so no
 * signal finds a file the handler does not know of. */
static int make_temp(char *tmp)
{
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	int fd = mkstemp(tmp);
	if (fd >= 0)
		pending_tmp = tmp;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return fd;
}

static bool output_open(Output *out, const char *path)
{
	out->path = path;
	if (!strcmp(path, "-")) {
		out->f = stdout;
		return true;
	}
	out->tmp = xmalloc(strlen(path) + 16);
	sprintf(out->tmp, "%s.tmpXXXXXX", path);
	int fd = make_temp(out->tmp);
	if (fd >= 0) {      /* mkstemp makes 0600; give the file the usual umask mode */
		mode_t mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	if (fd < 0 || !(out->f = fdopen(fd, "wb"))) {
		diag_error(OX_IO, path, "cannot create output file: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	return true;
}

static bool output_commit(Output *out)
{
	if (out->f == stdout)
		return fflush(stdout) == 0;
	bool ok = !ferror(out->f);
	ok &= fclose(out->f) == 0;
	if (ok && rename(out->tmp, out->path) != 0) {
		diag_error(OX_IO, out->path, "cannot write output file: %s", strerror(errno));
		ok = false;
	}
	if (!ok)
		remove(out->tmp);
	pending_tmp = NULL;
	free(out->tmp);
	return ok;
}

static void output_abort(Output *out)
{
	if (out->f && out->f != stdout)
		fclose(out->f);
	if (out->tmp)
		remove(out->tmp);
	pending_tmp = NULL;
	free(out->tmp);
}

/* ---------------------------------------------------------- pipeline */

typedef struct {
	Options *o;
	Output out;
	struct timespec t0, cpu0;     /* wall clock and process CPU time */
} Run;

static double ms_between(struct timespec a, struct timespec b)
{
	return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

static void clocks_now(struct timespec *wall, struct timespec *cpu)
{
	clock_gettime(CLOCK_MONOTONIC, wall);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, cpu);
}

/* -v: the stage's wall-clock time, then its CPU time, which a machine
 * shared with other work inflates far less. */
static void stage_done(Run *r, Stage s)
{
	struct timespec t1, cpu1;
	clocks_now(&t1, &cpu1);
	if (r->o->verbose)
		fprintf(stderr, "oxidec: %-5s %8.3f ms  (cpu %8.3f ms)\n", stage_names[s], ms_between(r->t0, t1),
		        ms_between(r->cpu0, cpu1));
	r->t0 = t1;
	r->cpu0 = cpu1;
}

static void write_text(Run *r, Stage s, const char *text)
{
	if (r->o->dump_after == s)
		fputs(text, stderr);
	if (r->o->emit == s)
		fputs(text, r->out.f);
}

/* Verify after an IR stage (an oxidec bug if it fails), then print it. */
static bool ir_stage(Run *r, Module *m, Stage s)
{
	stage_done(r, s);
	if (!ir_verify(m, stage_names[s], stderr))
		die("IR verification failed after stage %s", stage_names[s]);
	if (r->o->dump_after == s) {
		fprintf(stderr, "// ---- after %s ----\n", stage_names[s]);
		ir_print_module(stderr, m);
	}
	if (r->o->emit == s && r->o->dot)
		ir_dot_module(r->out.f, m, stage_names[s]);
	else if (r->o->emit == s)
		ir_print_module(r->out.f, m);
	return r->o->emit > s;
}

/* Host target: the object file, then e is freed. */
static bool run_obj(Run *r, EmitCtx *e)
{
	size_t n;
	uint8_t *obj = emit_object(e, &n);
	emit_free(e);
	if (!obj)
		return false;
	fwrite(obj, 1, n, r->out.f);
	free(obj);
	stage_done(r, ST_OBJ);
	return true;
}

static bool run_llvm(Run *r, Module *m)
{
	EmitCtx *e = emit_new(&r->o->eo, m->target);
	bool ok = e && emit_module(e, m) && emit_optimize(e);
	if (ok && (r->o->emit == ST_LL || r->o->dump_after == ST_LL)) {
		char *text = emit_llvm_text(e);
		write_text(r, ST_LL, text);
		free(text);
	}
	if (ok)
		stage_done(r, ST_LL);
	if (!ok || r->o->emit == ST_LL) {
		if (e)
			emit_free(e);
		return ok;
	}
	if (r->o->emit == ST_OBJ)
		return run_obj(r, e);
	size_t len;
	char *ptx = emit_ptx(e, &len);
	emit_free(e);
	if (!ptx)
		return false;
	stage_done(r, ST_PTX);
	write_text(r, ST_PTX, ptx);
	stack_check(m, ptx, len, r->o->eo.arch);     /* warns about recursive kernels */
	if (r->o->emit == ST_CUBIN) {
		size_t n;
		uint8_t *cubin = cubin_from_ptx(ptx, len, r->o->eo.arch, &n);
		if (cubin) {
			fwrite(cubin, 1, n, r->out.f);
			stage_done(r, ST_CUBIN);
		}
		free(cubin);
		ok = cubin != NULL;
	}
	free(ptx);
	return ok;
}

static bool run_ir(Run *r, FeInput *in)
{
	Arena *a = arena_new();
	Module *m = fe_build_module(in, a, r->o->target);
	bool ok = m != NULL && (r->o->target->kind == TARGET_HOST || prims_check_arch(m, r->o->eo.arch));
	if (m)
		m->arch = r->o->eo.arch;
	if (ok && r->o->emit == ST_HEADER) {       /* from stage 2's kernel ABI */
		ok = ir_verify(m, "mir", stderr) && emit_header(r->out.f, m, r->o->output);
		stage_done(r, ST_HEADER);
	} else if (ok && r->o->emit == ST_RUST) {  /* the same, spelled in Rust */
		ok = ir_verify(m, "mir", stderr) && emit_rust(r->out.f, m);
		stage_done(r, ST_RUST);
	} else if (ok && r->o->emit == ST_SIGNATURE) {   /* the same, as JSON */
		ok = ir_verify(m, "mir", stderr) && emit_signature(r->out.f, m, r->o->eo.arch);
		stage_done(r, ST_SIGNATURE);
	} else if (ok && ir_stage(r, m, ST_MIR)) {
		pass_mem2reg(m);
		if (ir_stage(r, m, ST_SSA)) {
			pass_nvvm(m);
			if (ir_stage(r, m, ST_NVVM)) {
				pass_llir(m);
				if (ir_stage(r, m, ST_LLIR))
					ok = run_llvm(r, m);
			}
		}
	}
	arena_free(a);
	return ok && !diag_errors();
}

/* Stage 1 output. */
static void run_json(Run *r, FeInput *in)
{
	char *text = fe_print_json(in);
	if (r->o->dump_after == ST_JSON)
		fprintf(stderr, "%s\n", text);
	if (r->o->emit == ST_JSON)
		fprintf(r->out.f, "%s\n", text);
	free(text);
}

/* The output file is created first: an unwritable destination is
 * reported before any work, and from then on the handlers of
 * install_cleanup know the temporary file. */
int main(int argc, char **argv)
{
	Options o = { 0 };
	parse_args(argc, argv, &o);
	install_cleanup();
	if (o.max_input)
		fe_limit_input(o.max_input);
	Run r = { &o, { 0 }, { 0, 0 }, { 0, 0 } };
	clocks_now(&r.t0, &r.cpu0);
	FeInput *in = NULL;
	bool ok = output_open(&r.out, o.output) && (in = fe_parse(o.inputs, o.ninput)) != NULL;
	if (ok) {
		stage_done(&r, ST_JSON);
		if (o.dump_after == ST_JSON || o.emit == ST_JSON)
			run_json(&r, in);
		if (o.emit != ST_JSON)
			ok = run_ir(&r, in);
	}
	fe_free(in);
	ok = ok && !diag_errors();
	if (ok)
		ok = output_commit(&r.out);
	else
		output_abort(&r.out);
	free(o.inputs);
	return ok ? 0 : 1;
}
