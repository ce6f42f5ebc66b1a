/* kabi.h: the kernel ABI as host code sees it — header.c's walk over
 * stage 2's kernel arguments (Func.args, Func.params, rustc's layouts),
 * shared by the two writers that describe it: header.c (--emit=header, C)
 * and signature.c (--emit=signature, JSON for wrappers in other
 * languages). Neither keeps a rule of the ABI of its own: what an
 * argument is (a slice, a pointer, a value, a tensor map), which PTX
 * parameters it became and where their bytes are in it come from here. */
#ifndef OXIDEC_KABI_H
#define OXIDEC_KABI_H

#include "../ir/ir.h"
#include "../util.h"

/* The module's kernels being described: the #[repr(C)] structs they
 * need, in an order where each comes after the structs it contains. */
typedef struct {
	Module *m;
	Arena *a;
	RType **structs;       /* described, each after the structs it contains */
	const char **names;    /* their C names */
	bool *done;            /* false while its members are being described */
	uint32_t n;            /* at most the module's RTypes */
	const char *why;       /* why the last type could not be described */
} Hdr;

typedef enum { ARG_VALUE, ARG_SLICE, ARG_POINTER, ARG_MAP } CArgKind;

/* How a kernel's argument is spelled in C: its launcher parameters (one,
 * or a pointer and a length), and what each PTX parameter is. */
typedef struct {
	const char *decl;      /* "const float *a, size_t a_len" */
	const char *ctype;     /* of the value, or of the data pointer */
	const char *len;       /* a slice's length parameter ("a_len") */
	CArgKind kind;
	RType *elem;           /* ARG_SLICE: the element type; ARG_POINTER: the pointee */
	bool readonly;         /* ARG_SLICE, ARG_POINTER: the kernel never writes through it */
} CArg;

/* One PTX parameter of an argument, as OXK_K_PARAMS lists it. */
typedef struct {
	uint32_t index;        /* in the kernel's PTX parameters */
	const char *name;      /* "a", "a_len", "t.lo" (a struct's member), "t+8" */
	const char *ctype;     /* its C type ("const float *", "size_t", "Pair") */
	const char *role;      /* pointer, length, scalar, byval, field */
	uint64_t bytes;        /* its size */
	const Param *p;        /* offset: where its bytes are in the argument */
} PtxParam;

/* An empty description of m's kernels (arrays in m's arena). */
void kabi_init(Hdr *h, Module *m);
/* Each kernel's arguments in C: [k][i] for the k-th kernel's i-th
 * argument (those without PTX parameters left zero), the structs they
 * need registered in h; NULL after a diag_error (OX0200, at the
 * argument's line, `what` naming the output: "--emit=header") for each
 * argument C cannot describe. */
CArg **kabi_check(Hdr *h, const char *what);
/* The argument's C name: Rust's, with a '_' after a C keyword. */
const char *kabi_arg_name(Hdr *h, const FuncArg *g, uint32_t i);
/* The k-th PTX parameter of argument g (spelled c, named name). */
void kabi_param(Hdr *h, const Func *fn, const FuncArg *g, const CArg *c, const char *name, uint32_t k,
                PtxParam *out);
/* The C type of a Rust scalar (integers, floats, bool, char) or atomic;
 * NULL for none. */
const char *kabi_scalar_ctype(const RType *t);
const char *kabi_atomic_ctype(const RType *t);
/* The C name of struct t if it was described, else NULL. */
const char *kabi_struct_name(const Hdr *h, const RType *t);
/* Does fn, or a function it calls, sync the grid (grid::sync())? Such a
 * kernel must be launched cooperatively. */
bool kabi_syncs_grid(Module *m, const Func *fn);

#endif
