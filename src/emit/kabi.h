/* kabi.h: the kernel ABI as host code sees it — header.c's walk over
 * stage 2's kernel arguments (Func.args, Func.params, rustc's layouts),
 * shared by the writers that describe it: header.c (--emit=header, C, and
 * --emit=rust, Rust for tools/oxide-host) and signature.c
 * (--emit=signature, JSON for wrappers in other languages). None keeps a
 * rule of the ABI of its own: what an argument is (a slice, a pointer, a
 * value, a tensor map), which PTX parameters it became and where their
 * bytes are in it come from here; only the spelling of types differs, by
 * the Lang the walk is made for (kabi_lang_c, kabi_lang_rust). */
#ifndef OXIDEC_KABI_H
#define OXIDEC_KABI_H

#include "../ir/ir.h"
#include "../util.h"

/* The spelling of types in the output's language. */
typedef struct {
	const char *name;              /* "C", "Rust": in messages */
	const char *ints[2][4];        /* unsigned, signed: 8 .. 64 bits */
	const char *bool_, *char_, *f32, *f64, *usize, *isize;
	const char *map;               /* oxide_device::hopper::TensorMap by value */
	const char *void_;             /* the pointee of a pointer to an unknown type */
} Lang;

/* C (--emit=header; signature.c's ctype fields and dtypes) and Rust
 * (--emit=rust: oxide_host's types). */
extern const Lang kabi_lang_c, kabi_lang_rust;

/* The module's kernels being described: the #[repr(C)] structs they
 * need, in an order where each comes after the structs it contains. */
typedef struct {
	Module *m;
	Arena *a;
	const Lang *lang;      /* the spelling of the types */
	RType **structs;       /* described, each after the structs it contains */
	const char **names;    /* their names (C's, Rust's: the same) */
	bool *done;            /* false while its members are being described */
	uint32_t n;            /* at most the module's RTypes */
	const char *why;       /* why the last type could not be described */
} Hdr;

typedef enum { ARG_VALUE, ARG_SLICE, ARG_POINTER, ARG_MAP } CArgKind;

/* How a kernel's argument is spelled: its launcher parameters (C: one,
 * or a pointer and a length; Rust: one), and what each PTX parameter is. */
typedef struct {
	const char *decl;      /* "const float *a, size_t a_len"; "a: &oxide_host::DeviceSlice<f32>" */
	const char *ctype;     /* of the value, or of the data pointer (C), or the element (Rust) */
	const char *len;       /* a slice's length parameter ("a_len") */
	CArgKind kind;
	RType *elem;           /* ARG_SLICE: the element type; ARG_POINTER: the pointee */
	bool readonly;         /* ARG_SLICE, ARG_POINTER: the kernel never writes through it */
} CArg;

/* One PTX parameter of an argument, as OXK_K_PARAMS lists it. */
typedef struct {
	uint32_t index;        /* in the kernel's PTX parameters */
	const char *name;      /* "a", "a_len", "t.lo" (a struct's member), "t+8" */
	const char *ctype;     /* its type ("const float *", "size_t", "Pair"; in Rust
	                        * "f32", "usize"); a field's is the C type of its PTX scalar */
	const char *role;      /* pointer, length, scalar, byval, field */
	uint64_t bytes;        /* its size */
	const Param *p;        /* offset: where its bytes are in the argument */
} PtxParam;

/* An empty description of m's kernels in language l (arrays in m's
 * arena). */
void kabi_init(Hdr *h, Module *m, const Lang *l);
/* Each kernel's arguments in h's language: [k][i] for the k-th kernel's
 * i-th argument (those without PTX parameters left zero), the structs
 * they need registered in h; NULL after a diag_error (OX0200, at the
 * argument's line, `what` naming the output: "--emit=header") for each
 * argument the language cannot describe. */
CArg **kabi_check(Hdr *h, const char *what);
/* The argument's name: Rust's; in C with a '_' after a C keyword, in
 * Rust raw (r#type) after a Rust keyword. */
const char *kabi_arg_name(Hdr *h, const FuncArg *g, uint32_t i);
/* The k-th PTX parameter of argument g (spelled c, named name). */
void kabi_param(Hdr *h, const Func *fn, const FuncArg *g, const CArg *c, const char *name, uint32_t k,
                PtxParam *out);
/* The type in l of a Rust scalar (integers, floats, bool, char) or of
 * the integer an atomic holds; NULL for none. */
const char *kabi_scalar_ctype(const Lang *l, const RType *t);
const char *kabi_atomic_ctype(const Lang *l, const RType *t);
/* The name of struct t if it was described, else NULL. */
const char *kabi_struct_name(const Hdr *h, const RType *t);
/* Does fn, or a function it calls, sync the grid (grid::sync())? Such a
 * kernel must be launched cooperatively. */
bool kabi_syncs_grid(Module *m, const Func *fn);

#endif
