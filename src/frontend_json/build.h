/* build.h: private interface between the files of stage 2, which builds
 * mir-dialect IR from the typed model (oxmir.h) and never sees JSON. */
#ifndef OXIDEC_BUILD_H
#define OXIDEC_BUILD_H

#include <stdarg.h>
#include <stdio.h>

#include "oxmir.h"

typedef enum { VK_ZST, VK_SCALAR, VK_FAT, VK_MEM } ValKind;

/* A Rust value: SSA scalar(s), or the address of its bytes (VK_MEM). */
typedef struct {
	RType *ty;
	Value *v[2];
	Value *addr;
	uint32_t align;          /* VK_MEM: what addr's place proves; 0: the type's */
} Val;

/* A place: its address, the length when unsized, a pending downcast, and
 * the alignment its projections prove (Rust's rule, as Miri keeps it: a
 * place of type T is aligned to T's alignment, a field at offset o to the
 * lesser of its base's and o's). */
typedef struct {
	RType *ty;
	Value *addr;
	Value *meta;
	int variant;
	uint32_t align;
} PlaceV;

/* Per-function builder state. */
typedef struct {
	Module *m;
	Arena *a;
	OxInput *in;             /* the input the body comes from */
	Func **funcs;            /* OxFunc id -> Func */
	Func *fn;
	JPath path;
	Builder b;
	Block *entry;
	Op *entry_term;
	RType **lty;
	Value **slot;
	uint32_t nlocal;
	Block **blocks;
	uint32_t nblock;
	bool sret;
	uint32_t nconst;
	Loc fn_loc;
	char fn_where[512];
	char where[512];
} Fb;

/* build.c: every op the frontend builds goes through fe_build, which
 * never lets a missing operand or result type reach the IR (see there). */
Op *fe_build(Builder *b, Opcode code, uint32_t nres, Type **rtys, uint32_t nopd, Value **opd, uint32_t nsucc);
Value *fe_build1(Builder *b, Opcode code, Type *rty, uint32_t nopd, Value **opd);
Value *fe_build_const(Builder *b, Opcode code, Type *t, uint64_t lo, uint64_t hi);
#define ir_build(...) fe_build(__VA_ARGS__)
#define ir_build1(...) fe_build1(__VA_ARGS__)
#define ir_build_const(...) fe_build_const(__VA_ARGS__)

void fb_error(Fb *fb, DiagCode code, const char *fmt, ...) PRINTF(3, 4);
void fb_set_span(Fb *fb, Loc span);
RType *fb_rtype(Fb *fb, OxType *t);
bool fb_index(Fb *fb, JPath p, uint32_t v, uint32_t n);
ValKind val_kind(RType *t);
bool fb_fits(Fb *fb, RType *t, Val v, const char *what);
Type *val_type(Val v);
Type *scalar_type_of(Fb *fb, RType *t);
Type *usize_type(Fb *fb);
Value *const_int(Fb *fb, Type *t, uint64_t v);
Value *ptr_add(Fb *fb, Value *p, uint64_t off);
Value *build_load(Fb *fb, Value *addr, Type *t);
void build_store(Fb *fb, Value *v, Value *addr);
Op *build_copy(Fb *fb, Value *dst, Value *src, RType *t);
Value *temp_slot(Fb *fb, RType *t);
Val load_val(Fb *fb, RType *t, Value *addr);
void store_val(Fb *fb, Value *addr, Val v);
Value *val_in_memory(Fb *fb, Val v);
Value *field_addr(Fb *fb, Value *base, RType *t, uint32_t variant, uint32_t i);
bool field_has_offset(RType *t, uint32_t variant, uint32_t i);
bool build_place(Fb *fb, JPath jp, const OxPlace *pl, PlaceV *out);
/* The error for local `l` of type `t`, which has no layout. */
void fb_error_no_layout(Fb *fb, uint32_t l, const RType *t);
Op *build_mark(Fb *fb);
void place_claim_align(Fb *fb, Op *mark, const PlaceV *p);
uint32_t align_at(uint32_t align, uint64_t off);
uint32_t type_align(RType *t);

/* packed.c: places less aligned than their type (#[repr(packed)] fields) */
bool place_is_underaligned(const PlaceV *p);
bool place_read_aligned(Fb *fb, PlaceV *p);
bool place_write_target(Fb *fb, PlaceV *p, PlaceV *back);
void place_write_back(Fb *fb, const PlaceV *tmp, const PlaceV *back);
void store_val_aligned(Fb *fb, Value *addr, uint32_t align, Val v);

/* operand.c */
bool build_operand(Fb *fb, JPath jp, const OxOperand *o, Val *out);
const char *alloc_symbol(Arena *a, OxInput *in, int64_t id);
const char *vtable_symbol(Arena *a, OxInput *in, uint32_t k);
void fe_import_allocs(Module *m, OxModule *ox);

/* types.c */
void fe_import_types(Module *m, OxModule *ox);

/* rvalue.c */
bool build_statement(Fb *fb, JPath jp, const OxStmt *st);

/* terminator.c */
bool build_terminator(Fb *fb, JPath jp, const OxTerm *t);
void abi_lower(Fb *fb, RType *t, bool kernel, Param *out, uint32_t *n);
Type *abi_return(Fb *fb, RType *t, bool *sret);
/* Whether declare_func gave `f` a return pointer (its first parameter,
 * named "ret"): callers and the body agree on it through this. */
bool func_returns_by_pointer(const Func *f);
void abi_store_params(Fb *fb, RType *t, Value **params, Value *slot);

/* gridconst.c */
bool fb_param_is_grid_constant(const OxFunc *ox, uint32_t local);
void fb_param_facts(const OxFunc *ox, RType *t, uint32_t local, Param *p, uint32_t n);

#endif
