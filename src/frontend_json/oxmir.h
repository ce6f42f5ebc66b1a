/* oxmir.h: the typed oxide-mir model, stage 1's output and stage 2's
 * input.  Stage 1 (json.c, parse.c, parse_types.c, parse_body.c) reads
 * the JSON files, checks every field (type, presence, exact integers in
 * range, indices resolved, kinds known) and links the inputs: one OxType
 * per (crate, type name), one OxFunc per symbol, calls and named
 * constants resolved to their bodies.  Stage 2 (func.c and the builders)
 * reads only these structs and may assert what is checked here; what
 * needs the layouts or the IR (a field that a type has no layout for,
 * operand and result types) it still checks and reports as a user error.
 * Everything lives in the input's arena; strings are names and symbols
 * only, every kind is an enum. */
#ifndef OXIDEC_OXMIR_H
#define OXIDEC_OXMIR_H

#include "frontend.h"

enum { OXIDE_MIR_VERSION = 1 };
#define FE_MAX_TYPE_SIZE (1ull << 40)

typedef struct OxType OxType;
typedef struct OxFunc OxFunc;
typedef struct OxInput OxInput;

/* A position in the input for diagnostics: the file and the JSON path,
 * kept as its steps from a root and written out only when a diagnostic
 * needs it (formatting the whole prefix at every step was quadratic in
 * the depth: 6 % of a large module's compile). */
typedef struct JStep JStep;
struct JStep {
	const JStep *up;         /* NULL: a root, whose key is its whole text ("$.types") */
	const char *key;         /* ".key", or NULL for "[index]" */
	int index;
};
typedef struct {
	const char *file;
	const JStep *at;
} JPath;

/* jpath.c (both stages): "FILE: $.path: error[OX0100]: ..." */
JPath jpath_root(Arena *a, const char *file, const char *text);
JPath jpath_field(Arena *a, JPath p, const char *key);
JPath jpath_index(Arena *a, JPath p, int i);
/* p's text ("$.functions[3].blocks") in buf, which it returns */
const char *jpath_text(JPath p, char *buf, size_t n);
void fe_error(JPath p, const char *fmt, ...) PRINTF(2, 3);
/* an atomic ordering's name, any spelling (`AtomicOrdering::Relaxed`,
 * `relaxed`, `SeqCst`): its AtomicOrd, or -1 */
int ox_ordering(const char *s);

/* ------------------------------------------------------------ types */

typedef enum { OXP_I8, OXP_I16, OXP_I32, OXP_I64, OXP_I128, OXP_F32, OXP_F64, OXP_PTR } OxPrim;

typedef struct {
	OxPrim prim;
	bool is_signed;
	U128 valid_start, valid_end;
} OxScalar;

typedef struct {
	uint64_t size;
	uint32_t align;
	uint64_t *fields;
	uint32_t nfield;
} OxVariantLayout;

/* rustc's layout of a type (OxType.has_layout). */
typedef struct {
	uint64_t size;
	uint32_t align;
	AbiKind abi;
	OxScalar scalars[2];
	uint32_t nscalar;        /* at most 2 kept */
	uint64_t *offsets;       /* field offsets */
	uint32_t noffset;
	uint32_t single_variant;
	bool has_variants;       /* multi-variant: tag and variant layouts */
	OxScalar tag;
	uint64_t tag_offset;
	bool niche;
	uint32_t untagged_variant, niche_first, niche_last;
	U128 niche_start;
	OxVariantLayout *vlayouts;
	uint32_t nvlayout;
} OxLayout;

typedef struct {
	const char *name;
	U128 discr;
	OxType **fields;         /* NULL entries: a field without "ty" */
	const char **field_names;  /* NULL entries: a field without "name" */
	uint32_t nfield;
} OxVariant;

struct OxType {
	RTypeKind kind;
	const char *name;
	uint32_t id;             /* position in OxModule.types */
	uint8_t bits;            /* RT_INT, RT_FLOAT */
	bool is_signed, is_mut;
	OxType *pointee, *elem;  /* RT_REF/RT_PTR; RT_ARRAY/RT_SLICE */
	uint64_t len;            /* RT_ARRAY */
	AdtKind adt_kind;
	bool drop_noop;
	bool repr_c;             /* RT_ADT: #[repr(C)] (oxide-mir "repr_c") */
	const char *path;        /* RT_ADT, RT_FNDEF, RT_CLOSURE */
	OxVariant *variants;     /* RT_ADT; RT_TUPLE and RT_CLOSURE: variants[0] */
	uint32_t nvariant;
	bool has_layout;
	const char *layout_error; /* no layout: why, as mir-export says (oxide-mir "layout_error"), or NULL */
	OxLayout layout;
};

/* ------------------------------------------------------------ allocs */

typedef struct {
	uint64_t offset;
	int64_t alloc;           /* an alloc id of the same input */
} OxReloc;

/* where a static lives: oxide-device's Shared<T> / Constant<T>, else global */
typedef enum { OX_SPACE_GLOBAL, OX_SPACE_SHARED, OX_SPACE_CONST } OxSpace;

typedef struct {
	int64_t id;
	uint64_t size;
	uint32_t align;
	bool is_mut;
	uint8_t *bytes;          /* size bytes */
	OxReloc *relocs;
	uint32_t nreloc;
	OxSpace space;
	const char *exported;    /* OX_SPACE_CONST: the name the host looks up */
} OxAlloc;

/* A vtable ("vtables"): `ty` as the trait object `dyn_`, rustc's layout
 * word by word (drop_in_place, size, align, then the methods); entries[k]
 * the function of word k, NULL for the metadata words, vacant slots and
 * supertraits' vtable pointers; vptrs[k] the index (in the input's
 * vtables) of the vtable whose address word k holds (rustc's `TraitVPtr`:
 * `ty`'s vtable as a supertrait object, which upcasts load), else -1.
 * `also`: the trait objects of supertraits that dyn upcasting coercions
 * make of a `dyn_` (their layouts are prefixes of this one). */
typedef struct {
	OxType *ty, *dyn_;
	uint64_t size;
	uint32_t align;
	OxFunc **entries;
	int64_t *vptrs;
	uint32_t nentry;         /* at least 3 */
	bool made;               /* a cast of a body makes it, or a made vtable points to it
	                          * (else no trait object holds it: mirsplit's cut files) */
	OxType **also;           /* the supertrait objects upcasts make of it */
	uint32_t nalso;
} OxVtable;

/* ------------------------------------------------------------ places */

typedef enum {
	OX_PROJ_DEREF, OX_PROJ_FIELD, OX_PROJ_INDEX, OX_PROJ_CONSTANT_INDEX, OX_PROJ_SUBSLICE,
	OX_PROJ_DOWNCAST,
} OxProjKind;

typedef struct {
	OxProjKind kind;
	uint32_t index;          /* FIELD: the field; INDEX: the local (< nlocal); DOWNCAST: the variant */
	OxType *ty;              /* FIELD; SUBSLICE of an array: the result array type, else NULL */
	uint64_t offset, to;     /* CONSTANT_INDEX: offset; SUBSLICE: from (offset), to */
	bool from_end;
} OxProj;

typedef struct {
	uint32_t local;          /* < the body's nlocal */
	OxProj *proj;
	uint32_t nproj;
} OxPlace;

/* ------------------------------------------------------------ operands */

typedef enum {
	OX_CONST_ZST, OX_CONST_FN, OX_CONST_SCALAR, OX_CONST_BYTES, OX_CONST_REF, OX_CONST_ADT,
	OX_CONST_UNEVALUATED,
} OxConstKind;

typedef struct OxConst OxConst;
struct OxConst {
	OxConstKind kind;
	U128 bits;               /* SCALAR */
	uint8_t *bytes;          /* BYTES: nbytes of them, and their relocations */
	uint64_t nbytes;
	OxReloc *relocs;
	uint32_t nreloc;
	int64_t alloc;           /* REF: an alloc id of this input (checked) */
	uint64_t offset;
	bool has_meta;
	U128 meta;
	uint32_t variant;        /* ADT */
	OxConst *fields;
	uint32_t nfield;
	OxFunc *body;            /* UNEVALUATED: the "const" body of that name */
	const char *def;
	OxFunc *fn;              /* FN with a "symbol": the function whose address is taken (resolved) */
};

typedef enum { OX_OPERAND_COPY, OX_OPERAND_MOVE, OX_OPERAND_CONSTANT } OxOperandKind;

typedef struct {
	OxOperandKind kind;
	OxPlace place;           /* COPY, MOVE */
	OxType *ty;              /* CONSTANT */
	OxConst c;
} OxOperand;

/* ------------------------------------------------------------ rvalues */

typedef enum {
	OX_RV_USE, OX_RV_COPY_FOR_DEREF, OX_RV_BINARY, OX_RV_UNARY, OX_RV_CAST, OX_RV_REF, OX_RV_AGGREGATE,
	OX_RV_REPEAT, OX_RV_DISCRIMINANT, OX_RV_NULLARY,
} OxRvalueKind;

/* binary operators: name, mir opcode (OP_COUNT: Offset) */
#define OX_BINOPS(X) \
	X(ADD, "Add", OP_MIR_ADD) X(SUB, "Sub", OP_MIR_SUB) X(MUL, "Mul", OP_MIR_MUL) \
	X(DIV, "Div", OP_MIR_DIV) X(REM, "Rem", OP_MIR_REM) X(BITXOR, "BitXor", OP_MIR_XOR) \
	X(BITAND, "BitAnd", OP_MIR_AND) X(BITOR, "BitOr", OP_MIR_OR) X(SHL, "Shl", OP_MIR_SHL) \
	X(SHR, "Shr", OP_MIR_SHR) X(EQ, "Eq", OP_MIR_EQ) X(LT, "Lt", OP_MIR_LT) X(LE, "Le", OP_MIR_LE) \
	X(NE, "Ne", OP_MIR_NE) X(GE, "Ge", OP_MIR_GE) X(GT, "Gt", OP_MIR_GT) X(CMP, "Cmp", OP_MIR_CMP) \
	/* unchecked forms: overflow is UB in Rust, so wrapping is a valid refinement */ \
	X(ADD_UNCHECKED, "AddUnchecked", OP_MIR_ADD) X(SUB_UNCHECKED, "SubUnchecked", OP_MIR_SUB) \
	X(MUL_UNCHECKED, "MulUnchecked", OP_MIR_MUL) X(SHL_UNCHECKED, "ShlUnchecked", OP_MIR_SHL) \
	X(SHR_UNCHECKED, "ShrUnchecked", OP_MIR_SHR) \
	X(ADD_WITH_OVERFLOW, "AddWithOverflow", OP_MIR_ADD_OVF) \
	X(SUB_WITH_OVERFLOW, "SubWithOverflow", OP_MIR_SUB_OVF) \
	X(MUL_WITH_OVERFLOW, "MulWithOverflow", OP_MIR_MUL_OVF) X(OFFSET, "Offset", OP_COUNT)
#define OX_BINOP_ENUM(e, name, code) OX_BIN_##e,
typedef enum { OX_BINOPS(OX_BINOP_ENUM) OX_BIN_COUNT } OxBinOp;
#undef OX_BINOP_ENUM
extern const struct OxBinOpInfo { const char *name; Opcode code; } ox_binops[OX_BIN_COUNT];

typedef enum { OX_UN_NOT, OX_UN_NEG, OX_UN_PTR_METADATA } OxUnOp;

typedef enum {
	OX_CAST_TRANSMUTE, OX_CAST_INT_TO_INT, OX_CAST_INT_TO_FLOAT, OX_CAST_FLOAT_TO_INT,
	OX_CAST_FLOAT_TO_FLOAT, OX_CAST_EXPOSE_PROVENANCE, OX_CAST_WITH_EXPOSED_PROVENANCE, OX_CAST_PTR_TO_PTR,
	OX_CAST_UNSIZE, OX_CAST_MUT_TO_CONST, OX_CAST_ARRAY_TO_POINTER,
	OX_CAST_REIFY_FN_POINTER,  /* PointerCoercion(ReifyFnPointer | ClosureFnPointer): a fn item's address */
	OX_CAST_UNSUPPORTED,     /* any other: `name` says which (for the message) */
} OxCastKind;

typedef enum { OX_NULLARY_SIZE_OF, OX_NULLARY_ALIGN_OF, OX_NULLARY_UB_CHECKS } OxNullOp;

typedef enum { OX_AGG_TUPLE, OX_AGG_ARRAY, OX_AGG_ADT, OX_AGG_CLOSURE, OX_AGG_RAW_PTR } OxAggKind;

typedef struct {
	OxRvalueKind kind;
	OxBinOp binop;           /* BINARY: lhs = ops[0], rhs = ops[1] */
	OxUnOp unop;             /* UNARY */
	OxCastKind cast;         /* CAST */
	const char *cast_name;   /* CAST: as printed, for messages */
	OxNullOp nullop;         /* NULLARY, of ty */
	OxAggKind agg;           /* AGGREGATE: variant, ops = the fields */
	uint32_t variant;
	OxType *ty;
	uint64_t count;          /* REPEAT */
	OxOperand *ops;          /* USE, UNARY, CAST, REPEAT: ops[0] */
	uint32_t nops;
	OxPlace place;           /* COPY_FOR_DEREF, REF, DISCRIMINANT */
	bool is_mut;             /* REF: `&mut`, `&raw mut` (also when the input does not say) */
	int64_t vtable;          /* CAST to a trait object: index in the input's vtables, else -1 */
	int64_t vtable_word;     /* CAST of a trait object to a supertrait's: the word of its
	                          * vtable that holds the supertrait's vtable, else -1 */
} OxRvalue;

/* ---------------------------------------------------------- statements */

typedef enum { OX_STMT_ASSIGN, OX_STMT_SET_DISCRIMINANT, OX_STMT_ASSUME, OX_STMT_COPY_NONOVERLAPPING } OxStmtKind;

typedef struct {
	OxStmtKind kind;
	Loc span;                /* file < 0: none (the function's) */
	OxPlace place;           /* ASSIGN, SET_DISCRIMINANT */
	OxRvalue rv;             /* ASSIGN */
	uint32_t variant;        /* SET_DISCRIMINANT: checked against the type in stage 2 */
	OxOperand ops[3];        /* ASSUME: ops[0]; COPY_NONOVERLAPPING: src, dst, count */
} OxStmt;

/* --------------------------------------------------------- terminators */

typedef enum {
	OX_TERM_GOTO, OX_TERM_SWITCH_INT, OX_TERM_RETURN, OX_TERM_UNREACHABLE, OX_TERM_ASSERT, OX_TERM_CALL,
	OX_TERM_DROP,
} OxTermKind;

typedef enum {
	OX_CALLEE_FUNCTION, OX_CALLEE_PANIC, OX_CALLEE_DEVICE, OX_CALLEE_INTRINSIC, OX_CALLEE_POINTER, OX_CALLEE_VIRTUAL,
} OxCalleeKind;

typedef struct {
	OxCalleeKind kind;
	const char *name;        /* FUNCTION: the Rust path; PANIC, INTRINSIC: the name */
	const char *symbol;      /* DEVICE: the __oxide_* / __nv_* symbol */
	OxFunc *fn;              /* FUNCTION: the body (resolved) */
	OxType *generic0;        /* INTRINSIC: generic_args[0] when a type index, else NULL */
	int ords[2];             /* INTRINSIC: orderings of "const_args" (AtomicOrd), -1 none */
	int nord;
	int64_t ints[2];         /* INTRINSIC: the integers of "const_args" ("3": prefetch's locality) */
	int nint;
	OxOperand *pointer;      /* POINTER: the function pointer called (an indirect call) */
	uint32_t slot;           /* VIRTUAL: the vtable word of the method (name: its path);
	                            args[0] is the trait object */
} OxCallee;

typedef struct {
	U128 value;
	uint32_t target;
} OxSwitchTarget;

typedef struct {
	OxTermKind kind;
	Loc span;
	bool has_target;         /* CALL: false when diverging */
	uint32_t target;         /* GOTO, ASSERT, CALL, DROP: a block (< nblock) */
	OxOperand op;            /* SWITCH_INT: discr; ASSERT: cond (when not optional) */
	OxSwitchTarget *targets; /* SWITCH_INT */
	uint32_t ntarget, otherwise;
	bool optional;           /* ASSERT: an overflow check rustc drops with overflow checks off */
	bool expected;
	const char *text;        /* ASSERT: rustc's message, else the assert kind */
	OxCallee callee;         /* CALL */
	OxOperand *args;
	uint32_t nargs;
	OxPlace place;           /* CALL: dest; DROP */
} OxTerm;

/* ------------------------------------------------------------ bodies */

typedef struct {
	OxStmt *stmts;
	uint32_t nstmt;
	OxTerm term;
} OxBlock;

typedef struct {
	OxType *ty;
	Loc span;
	const char *name;        /* the Rust variable ("a"); NULL: a temporary */
} OxLocal;

typedef enum { OX_FN_KERNEL, OX_FN_DEVICE, OX_FN_CONST } OxFuncKind;

struct OxFunc {
	uint32_t id;             /* position in OxModule.funcs */
	OxInput *input;
	const char *jpath;       /* "$.functions[3]" */
	const char *name, *symbol;
	OxFuncKind kind;
	bool noinline;
	const char *maxntid, *minnctapersm, *reqntid;
	uint32_t cluster[3];     /* kernel.attrs "cluster": blocks per cluster; 0s: none */
	bool contract;           /* kernel.attrs "contract": "1": FMA contraction allowed */
	bool has_span;
	Loc span;
	uint32_t arg_count;      /* < nlocal */
	OxLocal *locals;
	uint32_t nlocal;         /* at least 1 */
	OxBlock *blocks;
	uint32_t nblock;         /* at least 1 */
};

/* One JSON file (repeated ones are left out). */
struct OxInput {
	const char *path;
	const char *crate;       /* "crate", else the path: keys its items */
	uint32_t index;          /* position on the command line: alloc symbols */
	uint32_t file_base;      /* its files[0] in OxModule.files */
	OxAlloc *allocs;
	uint32_t nalloc;
	OxVtable *vtables;
	uint32_t nvtable;
};

/* The linked inputs: what fe_parse returns. */
typedef struct {
	const char **files;      /* every input's "files", one table (Module.files) */
	uint32_t nfile;
	OxType **types;          /* one per (crate, name), in order of definition */
	uint32_t ntype;
	OxInput *inputs;
	uint32_t ninput;
	OxFunc **funcs;          /* one per symbol, in order of definition */
	uint32_t nfunc;
} OxModule;

/* json.c: the model of fe_parse's result */
OxModule *fe_model(FeInput *in);

#endif
