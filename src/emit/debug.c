/* debug.c: DWARF debug metadata of the LLVM module, so the PTX carries
 * .file / .loc to the Rust source (and on the host target the object's
 * .debug_line / .debug_info), for compute-sanitizer, cuda-gdb, Nsight and gdb.
 *
 * Reads: the Module's file table and the Loc of each function and op (the
 * exporter already resolved code inlined from other crates to the kernel
 * crate's line that called it).  Makes, through LLVM's DIBuilder:
 *
 *   EMIT_DEBUG_LINES (default)  a compile unit of emission kind
 *                               LineTablesOnly: a DISubprogram per function
 *                               with a body, a DILocation on every
 *                               instruction built from an op.  NVPTX prints
 *                               .file/.loc (and the small .debug_* sections
 *                               nvcc -lineinfo also has no need of: see
 *                               below); LLVM's inliner adds inlinedAt.
 *   EMIT_DEBUG_FULL (-g)        the same in a FullDebug unit, plus the
 *                               parameters as DILocalVariables named after
 *                               the Rust argument (a slice `a`: `a.ptr`,
 *                               `a.len`), of their ABI type (u64, f32,
 *                               *mut u8).  Other locals are not described:
 *                               mem2reg does not say which value holds
 *                               which MIR local.
 *
 * Line tables on NVPTX use emission kind DebugDirectivesOnly (LLVM's
 * DICompileUnit kind 3, which clang's -gline-directives-only selects and
 * the C API's enum lacks): only .file and .loc, no DWARF sections, and no
 * ", debug" on .target, so ptxas optimizes as without it.  LineTablesOnly
 * would add .debug_info/.debug_abbrev sections to the PTX.
 *
 * Instructions that come from no op (phis, the prologue's allocas, the
 * edge blocks' branches) have no location; an op without a Loc gets line 0
 * in its function (LLVM's "no source line"), which every consumer skips. */
#include "emit_impl.h"

#include <llvm-c/DebugInfo.h>

#include <stdlib.h>
#include <string.h>

/* DICompileUnit::DebugDirectivesOnly, not in LLVMDWARFEmissionKind */
#define EMISSION_DIRECTIVES_ONLY 3

static LLVMMetadataRef file_of(EmitCtx *e, int32_t file)
{
	return file >= 0 && (uint32_t)file < e->nfile ? e->files[file] : e->files[0];
}

void emit_debug_begin(EmitCtx *e, Module *m)
{
	if (e->opt.debug == EMIT_DEBUG_NONE)
		return;
	e->dib = LLVMCreateDIBuilder(e->mod);
	e->nfile = m->nfile ? m->nfile : 1;
	e->files = xmalloc(sizeof *e->files * e->nfile);
	for (uint32_t i = 0; i < e->nfile; i++) {
		const char *name = m->nfile ? m->files[i] : "<unknown>";
		e->files[i] = LLVMDIBuilderCreateFile(e->dib, name, strlen(name), "", 0);
	}
	LLVMDWARFEmissionKind kind = e->opt.debug == EMIT_DEBUG_FULL ? LLVMDWARFEmissionFull
	                           : e->target->kind == TARGET_NVPTX ? (LLVMDWARFEmissionKind)EMISSION_DIRECTIVES_ONLY
	                                                             : LLVMDWARFEmissionLineTablesOnly;
	static const char producer[] = "oxidec";
	e->cu = LLVMDIBuilderCreateCompileUnit(e->dib, LLVMDWARFSourceLanguageRust, e->files[0], producer,
	                                       sizeof producer - 1, e->opt.opt_level > 0, "", 0, 0, "", 0, kind, 0, 0,
	                                       0, "", 0, "", 0);
	LLVMTypeRef i32 = LLVMInt32TypeInContext(e->ctx);
	LLVMAddModuleFlag(e->mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
	                  LLVMValueAsMetadata(LLVMConstInt(i32, LLVMDebugMetadataVersion(), 0)));
	/* NVPTX's DWARF is version 2 (cuda-gdb reads it); the host's 4 */
	LLVMAddModuleFlag(e->mod, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13,
	                  LLVMValueAsMetadata(LLVMConstInt(i32, e->target->kind == TARGET_NVPTX ? 2 : 4, 0)));
}

void emit_debug_end(EmitCtx *e)
{
	if (!e->dib)
		return;
	LLVMDIBuilderFinalize(e->dib);
	LLVMDisposeDIBuilder(e->dib);
	e->dib = NULL;
	free(e->files);
	e->files = NULL;
	e->nfile = 0;
}

/* The DWARF type of an IR scalar, for -g's variables. */
static LLVMMetadataRef scalar_type(EmitCtx *e, const Type *t)
{
	char name[16];
	LLVMDWARFTypeEncoding enc;
	switch (t->kind) {
	case TY_BOOL:
		return LLVMDIBuilderCreateBasicType(e->dib, "bool", 4, 8, 0x02 /* DW_ATE_boolean */, LLVMDIFlagZero);
	case TY_FLOAT:
		snprintf(name, sizeof name, "f%u", t->bits);
		enc = 0x04;   /* DW_ATE_float */
		break;
	case TY_INT:
		snprintf(name, sizeof name, "%c%u", t->is_signed ? 'i' : 'u', t->bits);
		enc = t->is_signed ? 0x05 : 0x07;   /* DW_ATE_signed, DW_ATE_unsigned */
		break;
	case TY_PTR: {
		LLVMMetadataRef u8 = LLVMDIBuilderCreateBasicType(e->dib, "u8", 2, 8, 0x08 /* DW_ATE_unsigned_char */,
		                                                  LLVMDIFlagZero);
		unsigned bits = e->target->kind == TARGET_NVPTX && t->addrspace >= AS_SHARED ? 32 : 64;
		return LLVMDIBuilderCreatePointerType(e->dib, u8, bits, 0, 0, "*mut u8", 7);
	}
	default:
		return NULL;
	}
	return LLVMDIBuilderCreateBasicType(e->dib, name, strlen(name), t->bits, enc, LLVMDIFlagZero);
}

/* -g: each parameter that carries a named Rust argument (Param.var) as a
 * DILocalVariable of its ABI type, its value at the function's first
 * instruction. */
static void describe_params(FuncEmit *fe)
{
	EmitCtx *e = fe->e;
	LLVMMetadataRef file = file_of(e, fe->f->loc.file);
	unsigned line = fe->f->loc.file >= 0 ? fe->f->loc.line : 0;
	LLVMMetadataRef loc = LLVMDIBuilderCreateDebugLocation(e->ctx, line, 0, fe->sp, NULL);
	LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fe->fn));
	for (uint32_t i = 0; i < fe->f->nparam; i++) {
		const Param *p = &fe->f->params[i];
		LLVMMetadataRef ty = p->var ? scalar_type(e, p->type) : NULL;
		if (!ty)
			continue;
		LLVMMetadataRef var = LLVMDIBuilderCreateParameterVariable(e->dib, fe->sp, p->var, strlen(p->var), i + 1, file,
		                                                           fe->f->loc.line, ty, 1, LLVMDIFlagZero);
		LLVMDIBuilderInsertDbgValueRecordBefore(e->dib, LLVMGetParam(fe->fn, i), var,
		                                        LLVMDIBuilderCreateExpression(e->dib, NULL, 0), loc, first);
	}
}

void emit_debug_func(FuncEmit *fe)
{
	EmitCtx *e = fe->e;
	if (!e->dib)
		return;
	Func *f = fe->f;
	LLVMMetadataRef file = file_of(e, f->loc.file);
	LLVMMetadataRef ty = LLVMDIBuilderCreateSubroutineType(e->dib, file, NULL, 0, LLVMDIFlagZero);
	unsigned line = f->loc.file >= 0 ? f->loc.line : 0;
	const char *name = f->name ? f->name : f->symbol;
	fe->sp = LLVMDIBuilderCreateFunction(e->dib, file, name, strlen(name), f->symbol, strlen(f->symbol), file,
	                                     line, ty, !f->is_kernel, 1, line,
	                                     LLVMDIFlagPrototyped, e->opt.opt_level > 0);
	LLVMSetSubprogram(fe->fn, fe->sp);
	fe->sp_file = f->loc.file >= 0 && (uint32_t)f->loc.file < e->nfile ? f->loc.file : 0;
	fe->scopes = xmalloc(sizeof *fe->scopes * e->nfile);
	memset(fe->scopes, 0, sizeof *fe->scopes * e->nfile);
	fe->scopes[fe->sp_file] = fe->sp;
}

/* The scope of a line of file k in fe's function: the subprogram, or a
 * DILexicalBlockFile of it when k is another file of the crate. */
static LLVMMetadataRef scope_of(FuncEmit *fe, int32_t k)
{
	if (k < 0 || (uint32_t)k >= fe->e->nfile)
		return fe->sp;
	if (!fe->scopes[k])
		fe->scopes[k] = LLVMDIBuilderCreateLexicalBlockFile(fe->e->dib, fe->sp, fe->e->files[k], 0);
	return fe->scopes[k];
}

void emit_debug_loc(FuncEmit *fe, const Op *op)
{
	if (!fe->sp)
		return;
	bool known = op->loc.file >= 0 && (uint32_t)op->loc.file < fe->m->nfile;
	LLVMMetadataRef loc = LLVMDIBuilderCreateDebugLocation(fe->e->ctx, known ? op->loc.line : 0,
	                                                       known ? op->loc.col : 0,
	                                                       scope_of(fe, known ? op->loc.file : -1), NULL);
	LLVMSetCurrentDebugLocation2(fe->b, loc);
}

/* Host target: the launch trampoline of kernel k (host.c), which inlines
 * k, gets an artificial subprogram at k's line and b a location in it, so
 * the inlined body keeps its lines (as an inlined frame of k). */
void emit_debug_trampoline(EmitCtx *e, LLVMValueRef fn, LLVMBuilderRef b, const Func *k)
{
	if (!e->dib)
		return;
	LLVMMetadataRef file = file_of(e, k->loc.file);
	unsigned line = k->loc.file >= 0 ? k->loc.line : 0;
	size_t n;
	const char *name = LLVMGetValueName2(fn, &n);
	LLVMMetadataRef ty = LLVMDIBuilderCreateSubroutineType(e->dib, file, NULL, 0, LLVMDIFlagZero);
	LLVMMetadataRef sp = LLVMDIBuilderCreateFunction(e->dib, file, name, n, name, n, file, line, ty, 0, 1, line,
	                                                 LLVMDIFlagArtificial | LLVMDIFlagPrototyped,
	                                                 e->opt.opt_level > 0);
	LLVMSetSubprogram(fn, sp);
	LLVMSetCurrentDebugLocation2(b, LLVMDIBuilderCreateDebugLocation(e->ctx, line, 0, sp, NULL));
}

void emit_debug_func_end(FuncEmit *fe, bool ok)
{
	if (ok && fe->sp && fe->e->opt.debug == EMIT_DEBUG_FULL)
		describe_params(fe);
	free(fe->scopes);
	fe->scopes = NULL;
}
