/* fuzz_json.c: libFuzzer target over oxidec's input path.  One input is
 * one oxide-mir JSON file; it goes through what `oxidec` runs before code
 * generation, for both targets:
 *
 *   fe_parse -> fe_build_module -> mem2reg -> nvvm -> llir   (ir_verify after each)
 *   [-> emit_module: the LLVM module, verified; with FUZZ_EMIT=1 only]
 *
 * A user error (diag_error, the exit-1 path of the driver) is a normal
 * outcome: the frontend returns NULL and we go on.  What the fuzzer hunts
 * is everything else: die()/abort (an "internal error"), a failed IR
 * verification, a sanitizer report, a hang, unbounded memory.
 *
 * The frontend reads files by name, so the input goes into a memfd and is
 * read back through /proc/self/fd/N: the production input path, untouched.
 *
 * The structure-aware mutator is in mutate.c. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emit/emit.h"
#include "frontend_json/frontend.h"
#include "ir/ir.h"
#include "passes/passes.h"
#include "target.h"
#include "util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int memfd = -1;
static char memfd_path[64];
static bool with_emit;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	memfd = memfd_create("fuzz-json.mir.json", 0);
	if (memfd < 0) {
		perror("fuzz-json: memfd_create");
		exit(1);
	}
	snprintf(memfd_path, sizeof memfd_path, "/proc/self/fd/%d", memfd);
	const char *e = getenv("FUZZ_EMIT");
	with_emit = e && *e == '1';
	return 0;
}

static void put_input(const uint8_t *data, size_t size)
{
	if (ftruncate(memfd, 0) != 0 || pwrite(memfd, data, size, 0) != (ssize_t)size)
		die("fuzz-json: cannot write the input to the memfd");
}

/* What main.c's ir_stage does: a verification failure is an oxidec bug. */
static void verify(Module *m, const char *stage)
{
	if (!ir_verify(m, stage, stderr))
		die("IR verification failed after stage %s", stage);
}

/* The LLVM module of m, built and verified, no optimisation or codegen. */
static void run_emit(Module *m)
{
	EmitOptions eo = { .arch = "sm_90", .opt_level = 3 };
	EmitCtx *e = emit_new(&eo, m->target);
	if (e) {
		emit_module(e, m);
		emit_free(e);
	}
}

static void run_target(FeInput *in, const Target *t)
{
	Arena *a = arena_new();
	Module *m = fe_build_module(in, a, t);
	if (m) {
		verify(m, "mir");
		pass_mem2reg(m);
		verify(m, "ssa");
		pass_nvvm(m);
		verify(m, "nvvm");
		pass_llir(m);
		verify(m, "llir");
		if (with_emit)
			run_emit(m);
	}
	arena_free(a);
	diag_reset();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	put_input(data, size);
	const char *path = memfd_path;
	FeInput *in = fe_parse(&path, 1);
	if (in) {
		run_target(in, &target_nvptx);
		run_target(in, &target_host);
	}
	fe_free(in);
	diag_reset();
	return 0;
}
