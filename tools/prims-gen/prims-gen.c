/* prims-gen: writes oxide-device's Rust side of the registry of device
 * primitives (src/ir/prims.def), so that the crate kernels use and the
 * compiler agree by construction:
 *
 *   prims-gen prims   oxide-device/src/prims.rs: every primitive's
 *                     `extern "C"` declaration (device, libdevice, atomic)
 *   prims-gen atomic  oxide-device/src/atomic.rs: the scoped atomics'
 *                     generic API over the ATOMIC rows
 *   prims-gen hosts   the emulator's functions (oxide_host_abi.h), one
 *                     per line: every DEVICE row's __oxide_host_NAME and
 *                     every LIBDEVICE row's __nv_NAME (tests/abi)
 *
 * `make prims` writes both; tests/abi/run.sh fails when the files in the
 * tree differ from what this prints.  Plain C, no part of oxidec linked:
 * the rows are expanded here as data. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct {
	const char *name, *ret, *args;
} Row;

#define A0() ""
#define A1(t1, n1) #t1 " " #n1
#define A2(t1, n1, t2, n2) #t1 " " #n1 ", " #t2 " " #n2
#define A3(t1, n1, t2, n2, t3, n3) #t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3
#define A4(t1, n1, t2, n2, t3, n3, t4, n4) #t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4
#define A5(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5) \
	#t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4 ", " #t5 " " #n5
#define A6(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6) \
	#t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4 ", " #t5 " " #n5 ", " #t6 " " #n6
#define A7(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6, t7, n7) \
	#t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4 ", " #t5 " " #n5 ", " #t6 " " #n6 ", " #t7 " " #n7
#define A8(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6, t7, n7, t8, n8) \
	#t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4 ", " #t5 " " #n5 ", " #t6 " " #n6 ", " #t7 " " #n7 ", " #t8 " " #n8
#define A9(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6, t7, n7, t8, n8, t9, n9) \
	#t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4 ", " #t5 " " #n5 ", " #t6 " " #n6 ", " #t7 " " #n7 ", " #t8 " " #n8 ", " #t9 " " #n9
#define A11(t1, n1, t2, n2, t3, n3, t4, n4, t5, n5, t6, n6, t7, n7, t8, n8, t9, n9, t10, n10, t11, n11) \
	#t1 " " #n1 ", " #t2 " " #n2 ", " #t3 " " #n3 ", " #t4 " " #n4 ", " #t5 " " #n5 ", " #t6 " " #n6 ", " \
	#t7 " " #n7 ", " #t8 " " #n8 ", " #t9 " " #n9 ", " #t10 " " #n10 ", " #t11 " " #n11

#define DEVICE(name, cls, lower, nvvm, flags, ret, args) { "__oxide_" #name, #ret, args },
static const Row device[] = {
#include "../../src/ir/prims.def"
};
#define LIBDEVICE(name, ret, args) { "__nv_" #name, #ret, args },
static const Row libdevice[] = {
#include "../../src/ir/prims.def"
};

typedef struct {
	const char *op, *ty;
} Atomic;
#define ATOMIC(op, ty, intrinsic) { #op, #ty },
static const Atomic atomics[] = {
#include "../../src/ir/prims.def"
};

#define ATOMIC_ORD(op, ty, intrinsic) { #op, #ty },
static const Atomic atomics_ord[] = {
#include "../../src/ir/prims.def"
};

#define countof(a) (sizeof(a) / sizeof((a)[0]))

static const char *const scopes[] = { "block", "device", "system" };
static const char *const Scopes[] = { "Block", "Device", "System" };

static const char *rust_type(const char *t, size_t n)
{
	static const struct { const char *c, *rust; } map[] = {
		{ "ptr", "*mut u8" }, { "cstr", "*const u8" }, { "bytes", "*const u8" },
		{ "out_f32", "*mut f32" }, { "out_u32", "*mut u32" }, { "sptr", "*mut u8" }, { "gptr", "*mut u8" },
		{ "io_f32", "*mut f32" }, { "out_i32", "*mut i32" },
	};
	static char buf[32];
	for (size_t i = 0; i < countof(map); i++)
		if (strlen(map[i].c) == n && !strncmp(map[i].c, t, n))
			return map[i].rust;
	snprintf(buf, sizeof buf, "%.*s", (int)n, t);
	return buf;
}

/* "u32 mask, u32 v" -> "mask: u32, v: u32" */
static void rust_params(const char *s)
{
	while (*s) {
		const char *end = strstr(s, ", ");
		size_t len = end ? (size_t)(end - s) : strlen(s);
		const char *name = s + len;
		while (name > s && name[-1] != ' ')
			name--;
		printf("%.*s: %s", (int)(s + len - name), name, rust_type(s, (size_t)(name - s) - 1));
		s = end ? end + 2 : s + len;
		if (*s)
			printf(", ");
	}
}

static void extern_fn(const char *name, const char *ret, const char *args)
{
	printf("        pub fn %s(", name);
	rust_params(args);
	printf(")");
	if (!strcmp(ret, "never"))
		printf(" -> !");
	else if (strcmp(ret, "void"))
		printf(" -> %s", rust_type(ret, strlen(ret)));
	printf(";\n");
}

static void extern_block(const char *doc, const char *vis, const char *mod, const Row *rows, size_t n)
{
	printf("\n/// %s\n#[allow(missing_docs)]\n%s mod %s {\n    extern \"C\" {\n", doc, vis, mod);
	for (size_t i = 0; i < n; i++)
		extern_fn(rows[i].name, rows[i].ret, rows[i].args);
	printf("    }\n}\n");
}

static bool is_cas(const Atomic *a)
{
	return !strcmp(a->op, "cas");
}

static void atomic_externs(void)
{
	printf("\n/// oxide-device's scoped atomics, `__oxide_atomic_<op>_<type>_<scope>`\n"
	       "/// (`atomic.rs` wraps them), and `__oxide_atomic_<op>_<type>` with the\n"
	       "/// scope and ordering as constant arguments (`atomic/types.rs`).\n#[allow(missing_docs)]\npub(crate) mod atomic {\n"
	       "    extern \"C\" {\n");
	for (size_t i = 0; i < countof(atomics); i++)
		for (size_t s = 0; s < countof(scopes); s++) {
			const Atomic *a = &atomics[i];
			char name[96], args[96];
			snprintf(name, sizeof name, "__oxide_atomic_%s_%s_%s", a->op, a->ty, scopes[s]);
			snprintf(args, sizeof args, is_cas(a) ? "*mut %s p, %s cmp, %s new" : "*mut %s p, %s v%.0s", a->ty,
			         a->ty, a->ty);
			extern_fn(name, a->ty, args);
		}
	for (size_t i = 0; i < countof(atomics_ord); i++) {
		const Atomic *a = &atomics_ord[i];
		char name[96], args[160];
		const char *fmt = !strcmp(a->op, "load") ? "*mut %s p%.0s%.0s, u32 scope, u32 order"
		                  : is_cas(a) ? "*mut %s p, %s cmp, %s new, u32 scope, u32 success, u32 failure"
		                  : "*mut %s p, %s v%.0s, u32 scope, u32 order";
		snprintf(name, sizeof name, "__oxide_atomic_%s_%s", a->op, a->ty);
		snprintf(args, sizeof args, fmt, a->ty, a->ty, a->ty);
		extern_fn(name, !strcmp(a->op, "store") ? "void" : a->ty, args);
	}
	printf("    }\n}\n");
}

static void gen_prims(void)
{
	printf("//! The GPU primitives as oxidec knows them, each by its exact symbol: one\n"
	       "//! `extern \"C\"` declaration per row of oxidec's registry of device\n"
	       "//! primitives (`src/ir/prims.def`). oxidec replaces every call by the\n"
	       "//! row's instruction, so none has a definition on any target.\n"
	       "//!\n"
	       "//! Generated by `tools/prims-gen` (`make prims`); do not edit.\n");
	extern_block("Special registers, barriers, trap, printf, assert, dynamic shared memory, warp,\n"
	             "/// sync and timer primitives.", "pub(crate)", "device", device, countof(device));
	extern_block("libdevice's math functions.", "pub", "libdevice", libdevice, countof(libdevice));
	atomic_externs();
}

/* ---- atomic.rs ---- */

static const char *const rmw_ops[] = { "add", "exch", "sub", "min", "max", "and", "or", "xor" };
static const char *const Rmw_ops[] = { "Add", "Exch", "Sub", "Min", "Max", "And", "Or", "Xor" };
static const char *const rmw_docs[] = {
	"`*ptr += v`", "`*ptr = v`", "`*ptr -= v` (wrapping)", "`*ptr = min(*ptr, v)` (signed for i32/i64)",
	"`*ptr = max(*ptr, v)` (signed for i32/i64)", "`*ptr &= v`", "`*ptr |= v`", "`*ptr ^= v`",
};

static bool has_atomic(const char *op, const char *ty)
{
	for (size_t i = 0; i < countof(atomics); i++)
		if (!strcmp(atomics[i].op, op) && !strcmp(atomics[i].ty, ty))
			return true;
	return false;
}

/* the types in the order of their first row */
static size_t atomic_types(const char **out)
{
	size_t n = 0;
	for (size_t i = 0; i < countof(atomics); i++) {
		size_t k = 0;
		while (k < n && strcmp(out[k], atomics[i].ty))
			k++;
		if (k == n)
			out[n++] = atomics[i].ty;
	}
	return n;
}

static void impl_rmw(const char *ty)
{
	bool all = true;
	printf("\nimpl AtomicValue for %s {\n    #[inline(always)]\n"
	       "    unsafe fn __rmw(op: RmwOp, ptr: *mut Self, v: Self, scope: Scope) -> Self {\n"
	       "        match (op, scope) {\n", ty);
	for (size_t o = 0; o < countof(rmw_ops); o++) {
		if (!has_atomic(rmw_ops[o], ty)) {
			all = false;
			continue;
		}
		for (size_t s = 0; s < countof(scopes); s++)
			printf("            (RmwOp::%s, Scope::%s) => prims::__oxide_atomic_%s_%s_%s(ptr, v),\n", Rmw_ops[o],
			       Scopes[s], rmw_ops[o], ty, scopes[s]);
	}
	if (!all)
		printf("            _ => core::hint::unreachable_unchecked(),\n");
	printf("        }\n    }\n}\n");
	if (!has_atomic("cas", ty))
		return;
	printf("\nimpl AtomicInt for %s {\n    #[inline(always)]\n"
	       "    unsafe fn __cas(ptr: *mut Self, cmp: Self, new: Self, scope: Scope) -> Self {\n"
	       "        match scope {\n", ty);
	for (size_t s = 0; s < countof(scopes); s++)
		printf("            Scope::%s => prims::__oxide_atomic_cas_%s_%s(ptr, cmp, new),\n", Scopes[s], ty,
		       scopes[s]);
	printf("        }\n    }\n}\n");
}

static void public_fn(const char *op, const char *doc, const char *bound, const char *scope_sfx, size_t s)
{
	bool cas = !strcmp(op, "cas");
	printf("\n/// Atomically%s %s%s %s scope; returns the old value.\n", cas ? ":" : "", doc, cas ? ";" : ",",
	       scopes[s]);
	printf("///\n/// # Safety\n/// `ptr` is valid and aligned for `T` (module documentation).\n#[inline(always)]\n");
	if (cas)
		printf("pub unsafe fn atomic_cas%s<T: AtomicInt>(ptr: *mut T, cmp: T, new: T) -> T {\n"
		       "    T::__cas(ptr, cmp, new, Scope::%s)\n}\n", scope_sfx, Scopes[s]);
	else
		printf("pub unsafe fn atomic_%s%s<T: %s>(ptr: *mut T, v: T) -> T {\n"
		       "    T::__rmw(RmwOp::%c%s, ptr, v, Scope::%s)\n}\n", op, scope_sfx, bound, op[0] - 32, op + 1,
		       Scopes[s]);
}

static void gen_atomic(void)
{
	const char *types[16];
	size_t ntypes = atomic_types(types);
	printf("%s", "//! Atomics beyond `core::sync::atomic`: atomic types of every scope for\n"
	       "//! u32, i32, u64, i64, f32 and f64 with `core::sync::atomic`'s methods and\n"
	       "//! orderings ([`DeviceAtomicF32`], [`BlockAtomicU32`], [`SystemAtomicU64`],\n"
	       "//! ...: `atomic/types.rs`), and CUDA-style scoped atomics on raw pointers\n"
	       "//! into global or shared memory, relaxed like CUDA's `atomicAdd` /\n"
	       "//! `atomicAdd_block` / `atomicAdd_system` (below).\n"
	       "//!\n"
	       "//! `core::sync::atomic` types (`AtomicU32::fetch_add` & co.) work on the\n"
	       "//! GPU as they are, with device scope. Here the scope is in the name:\n"
	       "//!\n"
	       "//! | function | LLVM syncscope | PTX scope | visible to |\n"
	       "//! |---|---|---|---|\n"
	       "//! | `atomic_add_block` | `\"block\"` | `.cta` | the threads of this block |\n"
	       "//! | `atomic_add` | `\"device\"` | `.gpu` | every thread of the grid |\n"
	       "//! | `atomic_add_system` | system | `.sys` | also the host and other GPUs |\n"
	       "//!\n"
	       "//! Every function returns the value before the operation. Safety: `ptr`\n"
	       "//! must be valid and aligned for `T`, in global or shared memory, and only\n"
	       "//! accessed atomically while others may access it.\n"
	       "//!\n"
	       "//! Generated by `tools/prims-gen` (`make prims`) from the ATOMIC rows of\n"
	       "//! oxidec's registry of device primitives (`src/ir/prims.def`); do not\n"
	       "//! edit. The extern symbols `__oxide_atomic_<op>_<ty>_<scope>` (`prims.rs`)\n"
	       "//! are GPU primitives that oxidec turns into `atomicrmw` / `cmpxchg`.\n"
	       "\n"
	       "use crate::prims::atomic as prims;\n"
	       "\n"
	       "mod types;\n"
	       "pub use types::*;\n"
	       "\n"
	       "/// Where an atomic must be visible (see the module documentation).\n"
	       "#[derive(Clone, Copy, PartialEq, Eq, Debug)]\n"
	       "pub enum Scope {\n    Block,\n    Device,\n    System,\n}\n");
	printf("\n/// Types with atomic add and exchange:");
	for (size_t t = 0; t < ntypes; t++)
		printf("%s %s", t ? "," : "", types[t]);
	printf(".\npub trait AtomicValue: Copy {\n    #[doc(hidden)]\n"
	       "    unsafe fn __rmw(op: RmwOp, ptr: *mut Self, v: Self, scope: Scope) -> Self;\n}\n");
	printf("\n/// Types with every atomic:");
	for (size_t t = 0, first = 1; t < ntypes; t++)
		if (has_atomic("cas", types[t])) {
			printf("%s %s", first ? "" : ",", types[t]);
			first = 0;
		}
	printf(".\npub trait AtomicInt: AtomicValue {\n    #[doc(hidden)]\n"
	       "    unsafe fn __cas(ptr: *mut Self, cmp: Self, new: Self, scope: Scope) -> Self;\n}\n");
	printf("\n#[doc(hidden)]\n#[derive(Clone, Copy, PartialEq, Eq)]\npub enum RmwOp {\n");
	for (size_t o = 0; o < countof(Rmw_ops); o++)
		printf("    %s,\n", Rmw_ops[o]);
	printf("}\n");
	for (size_t t = 0; t < ntypes; t++)
		impl_rmw(types[t]);
	/* add and exch exist for every type; the rest for the AtomicInt ones */
	for (size_t o = 0; o <= countof(rmw_ops); o++) {
		const char *op = o < countof(rmw_ops) ? rmw_ops[o] : "cas";
		const char *doc = o < countof(rmw_ops) ? rmw_docs[o] : "if `*ptr == cmp` then `*ptr = new`";
		const char *bound = o < 2 ? "AtomicValue" : "AtomicInt";
		size_t order[] = { 1, 0, 2 };   /* device (no suffix), block, system */
		for (size_t k = 0; k < 3; k++) {
			size_t s = order[k];
			char sfx[16];
			if (s == 1)
				sfx[0] = 0;
			else
				snprintf(sfx, sizeof sfx, "_%s", scopes[s]);
			public_fn(op, doc, bound, sfx, s);
		}
	}
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "prims")) {
		gen_prims();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "atomic")) {
		gen_atomic();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "hosts")) {
		for (size_t i = 0; i < countof(device); i++)
			printf("__oxide_host_%s\n", device[i].name + strlen("__oxide_"));
		for (size_t i = 0; i < countof(libdevice); i++)
			printf("%s\n", libdevice[i].name);
		return 0;
	}
	fprintf(stderr, "usage: prims-gen prims|atomic|hosts\n");
	return 2;
}
