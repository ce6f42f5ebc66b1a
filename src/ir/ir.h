/* ir.h: oxidec's own IR — one Op struct for every dialect (mir, nvvm, llir),
 * blocks with arguments instead of phis, everything allocated in the
 * module's arena.  Also the Rust type table (RType) with rustc's layouts,
 * imported from the oxide-mir JSON.
 *
 * Prototypes are grouped under the file that defines them.
 */
#ifndef OXIDEC_IR_H
#define OXIDEC_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../util.h"

/* ---------------------------------------------------------------- ops */

enum { VAR = -1 };

enum {
	PURE       = 1 << 0,
	TERM       = 1 << 1,
	READS      = 1 << 2,
	WRITES     = 1 << 3,
	CONVERGENT = 1 << 4,
	COMMUT     = 1 << 5,
};

typedef enum { DIALECT_MIR, DIALECT_NVVM, DIALECT_LLIR } Dialect;

typedef enum {
#define OP(d, name, text, nres, nopd, traits, attr) OP_##d##_##name,
#include "ops.def"
#undef OP
	OP_COUNT
} Opcode;

/* Attribute classes: which member of Op.attr an opcode uses (ops.def's
 * last column). */
typedef enum {
	ATTR_NONE, ATTR_ACCESS, ATTR_MEM, ATTR_OFFSET, ATTR_FIELD, ATTR_VFIELD, ATTR_VARIANT,
	ATTR_EXPECT, ATTR_GEP, ATTR_CMP, ATTR_INTRINSIC, ATTR_ATOMIC, ATTR_ASM, ATTR_HINT, ATTR_FMF,
} AttrClass;

typedef struct {
	Dialect dialect;
	const char *name;
	int nres, nopd;
	unsigned traits;
	AttrClass attr;
} OpInfo;

extern const OpInfo opinfo[OP_COUNT];

/* llir.icmp / llir.fcmp predicates (attr.cmp); names follow LLVM. */
typedef enum {
	PRED_EQ, PRED_NE, PRED_ULT, PRED_ULE, PRED_UGT, PRED_UGE,
	PRED_SLT, PRED_SLE, PRED_SGT, PRED_SGE,
	PRED_OEQ, PRED_ONE, PRED_OLT, PRED_OLE, PRED_OGT, PRED_OGE,
	PRED_UEQ, PRED_UNE, PRED_FULT, PRED_FULE, PRED_FUGT, PRED_FUGE,
	PRED_ORD, PRED_UNO,
} Pred;

/* llir.intrinsic overload rule (attr.intrinsic): which types complete the name. */
typedef enum {
	OVL_NONE,        /* llvm.nvvm.read.ptx.sreg.tid.x */
	OVL_RES,         /* llvm.foo.<res> */
	OVL_RES_OPD0,    /* llvm.fptosi.sat.<res>.<opd0> */
	OVL_OPD0,        /* llvm.ctpop.<opd0> */
	OVL_OPD012,      /* llvm.memcpy.<opd0>.<opd1>.<opd2> */
	OVL_OPD02,       /* llvm.memset.<opd0>.<opd2> */
} Overload;

/* LLVM's fast-math flags on float arithmetic (attr.fmf): what rustc sets
 * for core's *_algebraic (FMF_ALGEBRAIC) and *_fast (FMF_FAST: all). */
enum {
	FMF_REASSOC = 1, FMF_CONTRACT = 2, FMF_ARCP = 4, FMF_NSZ = 8, FMF_NNAN = 16, FMF_NINF = 32, FMF_AFN = 64,
	FMF_ALGEBRAIC = FMF_REASSOC | FMF_CONTRACT | FMF_ARCP | FMF_NSZ,
	FMF_FAST = FMF_ALGEBRAIC | FMF_NNAN | FMF_NINF | FMF_AFN,
};

/* Atomic orderings (attr.atomic), LLVM's: Relaxed = monotonic. */
typedef enum { AO_RELAXED, AO_ACQUIRE, AO_RELEASE, AO_ACQ_REL, AO_SEQ_CST } AtomicOrd;

/* Scope of an atomic (mir.intrinsic atomic_*): DEFAULT is Rust's core
 * atomics, device-wide on the GPU.  llir atomics carry the LLVM syncscope
 * name in sym instead. */
typedef enum { ATOMIC_SCOPE_DEFAULT, ATOMIC_SCOPE_BLOCK, ATOMIC_SCOPE_DEVICE, ATOMIC_SCOPE_SYSTEM } AtomicScope;

/* llir.atomicrmw operation (attr.atomic.rmw) */
typedef enum {
	RMW_XCHG, RMW_ADD, RMW_SUB, RMW_AND, RMW_NAND, RMW_OR, RMW_XOR,
	RMW_MAX, RMW_MIN, RMW_UMAX, RMW_UMIN, RMW_FADD,
	RMW_UINC_WRAP, RMW_UDEC_WRAP,   /* CUDA's atomicInc / atomicDec */
} AtomicRmw;

/* An op's attributes: the member its AttrClass names (OpInfo.attr);
 * which fields of it each op sets is in ops.def's comments. */
typedef union {
	struct {                 /* ATTR_ACCESS: mir/llir.load, .store, mir.copy */
		uint32_t align;      /* bytes; 0 in mir: the type's own */
		uint32_t src_align;  /* mir.copy: the source's; 0: the type's */
		bool is_volatile;    /* llir only */
		bool nontemporal;    /* llir.store: !nontemporal (core's nontemporal_store) */
	} access;
	struct {                 /* ATTR_MEM: llir.alloca, llir.memcpy */
		uint64_t size;       /* bytes */
		uint32_t align;      /* llir.memcpy: the destination's */
		uint32_t src_align;  /* llir.memcpy: the source's */
	} mem;
	struct { int64_t bytes; } offset;           /* ATTR_OFFSET: mir.ptr_add */
	struct { uint32_t index; } field;           /* ATTR_FIELD: mir.field (variant 0's) */
	struct { uint32_t variant, field; } vfield; /* ATTR_VFIELD: mir.variant_field */
	struct { uint32_t index; } variant;         /* ATTR_VARIANT: mir.set_discriminant */
	struct { bool value; } expect;              /* ATTR_EXPECT: mir.assert's expected condition */
	struct { uint64_t stride; } gep;            /* ATTR_GEP: llir.gep, bytes per index */
	struct { Pred pred; } cmp;                  /* ATTR_CMP: llir.icmp, llir.fcmp */
	struct { Overload overload; } intrinsic;    /* ATTR_INTRINSIC: llir.intrinsic */
	struct {                 /* ATTR_ATOMIC: mir.intrinsic atomic_*, llir atomics */
		AtomicOrd order;     /* success ordering */
		AtomicOrd fail_order; /* cmpxchg's failure ordering */
		AtomicScope scope;   /* mir only (llir: sym) */
		AtomicRmw rmw;       /* llir.atomicrmw */
		bool weak;           /* llir.cmpxchg may fail spuriously */
		uint32_t align;      /* llir.atomic_load / atomic_store */
	} atomic;
	struct {                 /* ATTR_ASM: llir.asm */
		const char *constraints;   /* LLVM's constraint string */
		bool pure;           /* no side effect: LLVM may move, merge or drop it */
	} inline_asm;
	struct { uint32_t unroll; } hint;           /* ATTR_HINT: llir.loop_hint */
	struct { uint32_t flags; } fmf;             /* ATTR_FMF: llir float arithmetic, FMF_* */
} OpAttr;

/* -------------------------------------------------------------- types */

/* Types of SSA values: scalars only.  Aggregates live in memory (slots,
 * allocas) and are described by RType.  Signedness is meaningful in the
 * mir dialect only; llir is signless. */
typedef enum { TY_VOID, TY_BOOL, TY_INT, TY_FLOAT, TY_PTR } TypeKind;

typedef enum { AS_GENERIC = 0, AS_GLOBAL = 1, AS_SHARED = 3, AS_CONST = 4, AS_LOCAL = 5 } AddrSpace;

typedef struct Type {
	TypeKind kind;
	uint8_t bits;        /* TY_INT: 8..128, TY_FLOAT: 32/64, TY_BOOL: 1, TY_PTR: 64 */
	bool is_signed;      /* TY_INT */
	bool is_char;        /* TY_INT used for Rust char (u32 with validity) */
	uint8_t addrspace;   /* TY_PTR */
} Type;

/* Rust types with rustc's layout (from the JSON type table). */
typedef enum {
	RT_BOOL, RT_CHAR, RT_INT, RT_FLOAT, RT_STR, RT_NEVER, RT_TUPLE, RT_ARRAY,
	RT_SLICE, RT_REF, RT_PTR, RT_ADT, RT_FNDEF, RT_CLOSURE,
	RT_OPAQUE,           /* dyn Trait: representable, never looked into */
	RT_FNPTR,            /* fn(A..) -> R: a thin code pointer (address space 0) */
} RTypeKind;

typedef enum { ABI_SCALAR, ABI_SCALAR_PAIR, ABI_VECTOR, ABI_MEMORY, ABI_UNINHABITED } AbiKind;
typedef enum { ADT_STRUCT, ADT_ENUM, ADT_UNION } AdtKind;

typedef struct {
	uint64_t lo, hi;     /* 128-bit value: lo holds bits 0..63 */
} U128;

typedef struct {
	Type *type;          /* i8..i128 (is_signed as rustc says), f32, f64, ptr */
	U128 valid_start, valid_end;
} Scalar;

typedef struct {
	uint64_t size;
	uint32_t align;      /* 0: not known (rustc 1.97 does not report it) */
	uint64_t *fields;    /* offsets by declaration index */
	uint32_t nfield;
} VariantLayout;

typedef struct RType RType;

typedef struct {
	const char *name;
	U128 discr;          /* discriminant value (sign-extended into 128 bits) */
	RType **fields;      /* field types; NULL entries when unknown */
	const char **field_names;  /* NULL entries when unknown (or for tuples) */
	uint32_t nfield;
} Variant;

struct RType {
	RTypeKind kind;
	const char *name;
	uint32_t id;         /* index in the module's type table */
	/* kind data */
	uint8_t bits;        /* RT_INT, RT_FLOAT */
	bool is_signed;      /* RT_INT */
	bool is_mut;         /* RT_REF, RT_PTR */
	RType *pointee;      /* RT_REF, RT_PTR */
	RType *elem;         /* RT_ARRAY, RT_SLICE */
	uint64_t len;        /* RT_ARRAY */
	AdtKind adt_kind;    /* RT_ADT */
	bool drop_noop;      /* RT_ADT: dropping it runs no code (oxide-mir "drop_noop") */
	bool repr_c;         /* RT_ADT: #[repr(C)] (oxide-mir "repr_c"; --emit=header) */
	const char *path;    /* RT_ADT, RT_FNDEF, RT_CLOSURE */
	Variant *variants;   /* RT_ADT; RT_TUPLE uses variants[0] for its fields */
	uint32_t nvariant;
	/* layout (has_layout false: unsized, or rustc gave none) */
	bool has_layout;
	const char *layout_error; /* !has_layout: why, when mir-export says (oxide-mir "layout_error") */
	uint64_t size;
	uint32_t align;
	AbiKind abi;
	Scalar scalars[2];
	uint64_t *offsets;   /* field offsets (variant 0 / struct / tuple) */
	uint32_t noffset;
	uint32_t single_variant; /* enum laid out as one variant (the others uninhabited) */
	bool has_variants;   /* multi-variant layout: tag below */
	Scalar tag;
	uint64_t tag_offset;
	bool niche;          /* tag encoding: niche (else direct) */
	uint32_t untagged_variant, niche_first, niche_last;
	U128 niche_start;
	VariantLayout *vlayouts;
	uint32_t nvlayout;
};

/* ----------------------------------------------------------- IR core */

typedef struct Op Op;
typedef struct Block Block;
typedef struct Func Func;
typedef struct Module Module;

/* Source location: index into Module.files, or file < 0 for none. */
typedef struct {
	int32_t file;
	uint32_t line, col;
} Loc;

typedef struct Value {
	Type *type;
	Op *def;             /* defining op, or NULL for a block argument */
	Block *block;        /* block of a block argument */
	uint32_t index;      /* result index, or argument index */
	uint32_t num;        /* printer numbering (scratch) */
	void *aux;           /* pass scratch */
} Value;

typedef struct {
	Block *block;
	Value **args;
	uint32_t nargs;
} Succ;

struct Op {
	Opcode code;
	Loc loc;
	Block *parent;
	Op *prev, *next;
	uint32_t nopd, nres, nsucc, nval;
	Value **opd;
	Value *res;          /* array of nres values */
	Succ *succ;
	/* attributes; which ones an opcode uses is documented in ops.def */
	RType *rty;
	OpAttr attr;         /* the member opinfo[code].attr names */
	U128 *vals;
	const char *sym;
	void *aux;           /* pass scratch */
};

struct Block {
	Func *func;
	Block *prev, *next;
	Op *first, *last;
	Value **args;
	uint32_t nargs, cap_args;
	uint32_t num;        /* printer numbering / pass scratch */
	void *aux;
};

typedef struct {
	Type *type;
	uint64_t byval_size; /* kernel parameter passed as .param byte array */
	uint32_t byval_align;
	const char *name;
	bool grid_constant;  /* byval kernel parameter the kernel never writes: its
	                        own address is used, no copy (CUDA's __grid_constant__) */
	/* what Rust promises of a kernel's pointer parameter (fb_param_facts):
	 * no other pointer reaches its memory while the kernel runs, nothing
	 * writes it, its alignment, its dereferenceable bytes (0: none) */
	bool noalias, readonly, nonnull;
	uint32_t align;
	uint64_t deref;
	const char *var;     /* debug info: the Rust argument it carries ("a"; a pair's
	                        halves "a.ptr" "a.len" or "a.0" "a.1"), or NULL */
	uint64_t offset;     /* where its bytes are in the Rust argument's value (a
	                        ScalarPair's second half: past the first, aligned) */
} Param;

/* A kernel's Rust argument (stage 2), for --emit=header: its name, type
 * and the PTX parameters abi_lower made of it, params[first ..
 * first + nparam). */
typedef struct {
	const char *name;    /* the JSON's locals[].name, or NULL (`_`) */
	RType *rty;
	uint32_t first, nparam;
	Loc loc;             /* the argument's span */
} FuncArg;

struct Func {
	Module *mod;
	Func *next;
	const char *name;    /* Rust path */
	const char *symbol;  /* PTX symbol */
	bool is_kernel;
	bool noinline;       /* #[inline(never)] (oxide-mir "inline": "never"): stays a call */
	bool is_extern;      /* declaration only, no blocks: vprintf, libdevice's
	                        __nv_*, the emulator's functions (the targets' hooks) */
	/* kernel launch attributes ("256" or "16,16,1"; NULL: none), from
	 * kernel.attrs; the emitter sets nvvm.maxntid / minctasm / reqntid */
	const char *maxntid, *minnctapersm, *reqntid;
	/* blocks per cluster (kernel.attrs "cluster"; 0s: none): nvvm.cluster_dim
	 * on NVPTX (.reqnctapercluster), __oxide_cluster_<K> on the host */
	uint32_t cluster[3];
	/* #[kernel(contract)] (kernel.attrs "contract": "1"): its own fmul,
	 * fadd and fsub carry LLVM's `contract` flag, so a multiply feeding an
	 * add may become one fma; false: Rust-exact (every kernel by default,
	 * every device function) */
	bool contract;
	Loc loc;
	Param *params;
	uint32_t nparam;
	FuncArg *args;       /* kernels: the Rust arguments, in order */
	uint32_t nargs;
	Type *ret;           /* TY_VOID when nothing is returned by value */
	Block *first, *last;
};

typedef struct {
	uint64_t offset;
	const char *target;  /* global symbol whose address is stored */
} Reloc;

typedef struct Global {
	struct Global *next;
	const char *name;
	uint8_t *bytes;
	uint64_t size;
	uint32_t align;
	bool is_mut;
	uint8_t addrspace;
	Reloc *relocs;
	uint32_t nreloc;
	const char *alias;   /* another name ir_global_find knows it by (a Constant<T>
	                        static keeps its alloc's __oxide_alloc_* name here) */
	bool is_exported;    /* external linkage under `name` (constant memory) */
	bool is_extern;      /* declared only: extern .shared b8 name[] (dynamic shared) */
	uint64_t shared_offset;  /* host target, stage 4: a Shared<T> static's offset in
	                            the block's static shared memory (nvvm_host.c) */
} Global;

/* What the module is compiled for: one Target per target (src/target.c:
 * target_nvptx, target_host), chosen once by the driver and kept only in
 * Module.target.  The passes call its hooks for everything that
 * differs between targets and never ask which target they are on;
 * src/emit, which keeps its own per-target code, reads kind.
 * TARGET_HOST: the host-emulation target (oxidec --target=host); device
 * primitives become calls into the emulator (src/runtime/oxemu.c) and
 * every address space is 0. */
typedef enum { TARGET_NVPTX, TARGET_HOST } TargetKind;

typedef struct NvvmHooks NvvmHooks;   /* src/passes/nvvm.h */
typedef struct LlirHooks LlirHooks;   /* src/passes/llir.h */

typedef struct {
	TargetKind kind;
	const char *name;          /* as --target= spells it */
	const NvvmHooks *nvvm;     /* stage 4 (nvvm_<name>.c) */
	const LlirHooks *llir;     /* stage 5 (llir_<name>.c) */
} Target;

struct Module {
	Arena *arena;
	const Target *target;  /* given when the module is built (fe_build_module) */
	const char *arch;      /* --arch (nvptx: what stage 5 may emit); NULL: sm_90, the default */
	const char **files;
	uint32_t nfile;
	const char **crates; /* the inputs' crates, in command-line order (--emit=signature) */
	uint32_t ncrate;
	RType **rtypes;
	uint32_t nrtype;
	Func *funcs, *last_func;
	Global *globals, *last_global;
	Dialect stage;       /* highest dialect in use */
	uint32_t static_shared_bytes;  /* host target: the Shared<T> statics, laid out
	                                  per block by stage 4 (nvvm_host.c) */
	Type *interned[64];  /* type interning table */
	uint32_t ninterned;
};

/* ir.c */
Module *ir_module_new(Arena *a);
Type *ir_type(Module *m, TypeKind k, unsigned bits, bool is_signed, unsigned as);
Type *ir_type_void(Module *m);
Type *ir_type_bool(Module *m);
Type *ir_type_int(Module *m, unsigned bits, bool is_signed);
Type *ir_type_float(Module *m, unsigned bits);
Type *ir_type_ptr(Module *m, unsigned as);
Func *ir_func_new(Module *m, const char *name, const char *symbol);
Global *ir_global_new(Module *m, const char *name);
Global *ir_global_find(Module *m, const char *name);
Func *ir_func_find(Module *m, const char *symbol);
Block *ir_block_new(Func *f);                  /* appended at the end */
Value *ir_block_add_arg(Block *b, Type *t);
void ir_block_remove_arg(Block *b, uint32_t i);
void ir_block_unlink(Block *b);
Op *ir_op_new(Module *m, Opcode code, uint32_t nres, Type **rtys, uint32_t nopd, Value **opd, uint32_t nsucc);
void ir_op_append(Block *b, Op *op);
void ir_op_insert_before(Op *before, Op *op);
void ir_op_unlink(Op *op);
void ir_op_set_succ(Module *m, Op *op, uint32_t i, Block *target, uint32_t nargs, Value **args);
void ir_op_set_vals(Module *m, Op *op, uint32_t n, const U128 *vals);
uint32_t ir_type_natural_align(Type *t);
/* "FILE:LINE:COL" of loc into buf ("" when unknown), for diagnostics */
const char *ir_loc_string(const Module *m, Loc loc, char *buf, size_t n);
Op *ir_block_terminator(Block *b);
void ir_replace_all_uses(Func *f, Value *from, Value *to);
/* deferred replacement for passes that replace many values (ir.c) */
void ir_forward_begin(Func *f);
void ir_forward(Value *from, Value *to);
void ir_forward_op(Op *op);
void ir_forward_end(Func *f);
bool op_is_terminator(const Op *op);
bool op_has_trait(const Op *op, unsigned trait);
const char *ir_type_str(Type *t, char *buf, size_t n);
const char *ir_pred_name(Pred p);

/* Builder: creates an op at the end of a block.  Single-result helpers
 * return the result value. */
typedef struct {
	Module *mod;
	Block *block;
	Op *before;          /* insert before this op instead when set */
	Loc loc;
} Builder;

Op *ir_build(Builder *b, Opcode code, uint32_t nres, Type **rtys, uint32_t nopd, Value **opd, uint32_t nsucc);
Value *ir_build1(Builder *b, Opcode code, Type *rty, uint32_t nopd, Value **opd);
Value *ir_build_const(Builder *b, Opcode code, Type *t, uint64_t lo, uint64_t hi);

/* printer.c: stable numbering per function, in block and op order */
void ir_print_module(FILE *out, Module *m);
void ir_print_func(FILE *out, Func *f);
void ir_print_number(Func *f);
void ir_print_func_head(FILE *out, Func *f);
void ir_print_block_label(FILE *out, Block *b);
void ir_print_op(FILE *out, Op *op, bool loc);
void ir_print_const(FILE *out, U128 v, Type *t);

/* dot.c: the control-flow graph of each function as Graphviz (--emit=dot) */
void ir_dot_module(FILE *out, Module *m, const char *stage);

/* verify.c: structural checks; returns false and prints the first problem */
bool ir_verify(Module *m, const char *after, FILE *err);

/* layout.c: queries over RType layouts */
uint64_t rtype_field_offset(const RType *t, uint32_t variant, uint32_t field);
RType *rtype_field_type(const RType *t, uint32_t variant, uint32_t field);
bool rtype_is_fat_ptr(const RType *t);
bool rtype_is_zst(const RType *t);
bool rtype_is_scalar(const RType *t);
Type *rtype_scalar_type(Module *m, const RType *t);  /* value type of a scalar RType, or NULL */

#endif
