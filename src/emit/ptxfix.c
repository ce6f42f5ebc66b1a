/* ptxfix.c: the last step of PTX emission — rewrites of LLVM's PTX text
 * around ptxas miscompilations.  Each rule was measured on an H200 (sm_90;
 * ptxas and driver JIT of CUDA 13.0) against every input of the pattern,
 * before and after the rewrite (tests/gpu/hazards; docs/DESIGN.md "ptxas
 * hazards"):
 *
 *   neg.s16 %d, %a;            ptxas -O3 takes sext(neg16(a)) for
 *   sub.s16 %d, 0, %a;         neg32(sext(a)): -(-32768) reads as +32768 in
 *                              every signed use (setp.s16, cvt.s32.s16,
 *                              shr.s16), so i16::saturating_neg(MIN) = MIN.
 *     ==>  the negation / subtraction at 32 bits, then cvt.u16.u32
 *          (every 16-bit sub, since ptxas finds zeros in registers too)
 *
 *   abs.s16/s32/s64 %d, %a;    ptxas takes the result to be >= 0, but
 *                              abs(MIN) = MIN: a later setp.lt ..., 0 is
 *                              folded to false (i64::wrapping_abs(MIN)
 *                              .signum() = 1, i32 saturating_abs of
 *                              unsigned_abs(MIN) as i32 = MIN).
 *     ==>  m = a >> (W-1) (arithmetic); d = (a ^ m) - m, the 16-bit one
 *          at 32 bits
 *
 *   selp.f32 %d, A, B, %p;     ptxas -O3 turns setp.lt/gt.f32 of a value
 *   selp.b32 (same, %p from    and a constant plus this select into
 *     a setp.*.f32)            FMNMX.NAN, which returns the canonical NaN
 *                              instead of the NaN operand (f32::clamp);
 *                              integer selects and other predicate forms
 *                              are turned the same way.
 *     ==>  the select, then for each register operand R: "if R is NaN and
 *          the select chose R, R" (setp.nan.and + selp): the same value,
 *          which ptxas leaves alone
 *
 *   neg.f32/f64, abs.f32/f64   return the canonical NaN for NaN inputs;
 *                              Rust's -x and abs only change the sign bit
 *     ==>  xor / and on the bits
 *
 * LLVM's instruction selection makes these from many IR forms (sub 0,
 * ssub.sat, abs expansions, fneg/fabs, selects made from branches), so the
 * PTX text is the one place where oxidec can be sure ptxas never sees
 * them.  Each rewrite computes exactly what the instruction computes. */
#include "emit_impl.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void PRINTF(2, 3) buf_printf(Buf *b, const char *fmt, ...)
{
	char text[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof text)
		die("PTX rewrite longer than %zu bytes", sizeof text);
	buf_add(b, text, (size_t)n);
}

typedef char Operand[64];

/* A list of predicate register names. */
typedef struct {
	Operand *names;
	size_t n, cap;
} Preds;

/* Per function body: the predicates set by float compares (selp.b32 on
 * them is guarded like selp.f32), and those whose every definition is a
 * plain integer compare (a selp.f32 on one is left alone). */
typedef struct {
	Preds floats, ints;
	unsigned id;       /* numbers the registers of the rewrites */
} Fix;

/* The operands of "OPCODE a, b, ...;" (the instruction without its
 * indentation and guard); their count, or -1 when it is not that
 * instruction or does not fit. */
static int split_operands(const char *line, size_t n, const char *opcode, Operand *ops, int max)
{
	size_t k = strlen(opcode);
	if (n <= k || strncmp(line, opcode, k) || (line[k] != ' ' && line[k] != '\t'))
		return -1;
	int count = 0;
	for (const char *p = line + k, *end = line + n; p < end && count < max;) {
		p += strspn(p, " \t");
		size_t m = strcspn(p, ",;");
		if (p + m >= end || m == 0 || m >= sizeof(Operand))
			return -1;
		memcpy(ops[count], p, m);
		ops[count++][m] = 0;
		if (p[m] == ';')
			return count;
		p += m + 1;
	}
	return -1;
}

static bool is_reg(const char *op)
{
	return op[0] == '%';
}

/* A 16-bit operand as a 32-bit one in t: cvt of a register, mov of an
 * immediate sign-extended (cvt takes no immediates). */
static void widen16(Buf *out, const char *g, const char *t, const char *op)
{
	if (is_reg(op)) {
		buf_printf(out, "%scvt.s32.s16 %s, %s; ", g, t, op);
		return;
	}
	long v = strtol(op, NULL, 0);
	buf_printf(out, "%smov.b32 %s, %d; ", g, t, (int)(int16_t)(uint16_t)(v & 0xffff));
}

/* neg.s16 d, a / sub.{s,u}16 d, a, b  ==>  32-bit arithmetic, truncated. */
static bool fix_int16(Buf *out, const char *g, const char *line, size_t n, unsigned id)
{
	Operand ops[3];
	const char *un = split_operands(line, n, "neg.s16", ops, 2) == 2 ? "neg.s32" : NULL;
	bool neg = un != NULL;
	if (!neg && split_operands(line, n, "sub.s16", ops, 3) != 3 && split_operands(line, n, "sub.u16", ops, 3) != 3)
		return false;
	char a[24], b[24];
	snprintf(a, sizeof a, "%%oxa%u", id);
	snprintf(b, sizeof b, "%%oxb%u", id);
	buf_printf(out, "{ .reg .b32 %s, %s; ", a, b);
	if (neg) {
		widen16(out, g, a, ops[1]);
		buf_printf(out, "%s%s %s, %s; ", g, un, a, a);
	} else {
		widen16(out, g, a, ops[1]);
		widen16(out, g, b, ops[2]);
		buf_printf(out, "%ssub.s32 %s, %s, %s; ", g, a, a, b);
	}
	buf_printf(out, "%scvt.u16.u32 %s, %s; }", g, ops[0], a);
	return true;
}

/* abs.sW d, a  ==>  m = a >> (W-1); d = (a ^ m) - m: the same bits, and
 * no abs for ptxas to assume non-negative.  W = 16 works at 32 bits
 * (16-bit subtraction is a hazard of its own) and truncates. */
static bool fix_int_abs(Buf *out, const char *g, const char *line, size_t n, unsigned id)
{
	static const char *const names[] = { "abs.s16", "abs.s32", "abs.s64" };
	Operand ops[2];
	int k = 0;
	while (k < 3 && split_operands(line, n, names[k], ops, 2) != 2)
		k++;
	if (k == 3)
		return false;
	int w = k == 2 ? 64 : 32;
	char a[24], m[24];
	snprintf(a, sizeof a, "%%oxa%u", id);
	snprintf(m, sizeof m, "%%oxm%u", id);
	buf_printf(out, "{ .reg .b%d %s, %s; ", w, a, m);
	if (k == 0)
		widen16(out, g, a, ops[1]);
	else
		buf_printf(out, "%smov.b%d %s, %s; ", g, w, a, ops[1]);
	buf_printf(out, "%sshr.s%d %s, %s, %d; %sxor.b%d %s, %s, %s; %ssub.s%d %s, %s, %s; ", g, w, m, a, w - 1, g, w, a,
	           a, m, g, w, a, a, m);
	if (k == 0)
		buf_printf(out, "%scvt.u16.u32 %s, %s; }", g, ops[0], a);
	else
		buf_printf(out, "%smov.b%d %s, %s; }", g, w, ops[0], a);
	return true;
}

static bool has_pred(const Preds *ps, const char *p)
{
	for (size_t i = 0; i < ps->n; i++)
		if (!strcmp(ps->names[i], p))
			return true;
	return false;
}

static void add_pred(Preds *ps, const char *name, size_t k)
{
	if (!k || k >= sizeof(Operand))
		return;
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 16;
		ps->names = xrealloc(ps->names, ps->cap * sizeof *ps->names);
	}
	memcpy(ps->names[ps->n], name, k);
	ps->names[ps->n++][k] = 0;
}

/* The destinations of "OPCODE d[|e], ..." (line without indentation and
 * guard) into ps. */
static void add_dests(Preds *ps, const char *line, size_t n, size_t op_len)
{
	size_t i = op_len + strspn(line + op_len, " \t");
	size_t end = i + strcspn(line + i, ",;\n");   /* the first operand */
	while (i < end && end <= n) {
		size_t k = strcspn(line + i, "|,;\n");
		add_pred(ps, line + i, k);
		i += k + 1;
	}
}

/* setp.CMP[.BOOL].f32 p[|q], ...: remember p (and q). */
static void note_float_pred(Fix *fx, const char *line, size_t n)
{
	size_t op_len = strcspn(line, " \t\n");
	if (op_len >= n || op_len < 9 || strncmp(line, "setp.", 5) || strncmp(line + op_len - 4, ".f32", 4))
		return;
	add_dests(&fx->floats, line, n, op_len);
}

/* "setp.CMP.T" with T an integer type, no .BOOL with another predicate. */
static bool is_int_compare(const char *op, size_t n)
{
	static const char *const types[] = { "s16", "u16", "b16", "s32", "u32", "b32", "s64", "u64", "b64" };
	const char *dot = memchr(op + 5, '.', n - 5);
	if (n < 9 || strncmp(op, "setp.", 5) || dot == NULL || memchr(dot + 1, '.', (size_t)(op + n - dot - 1)))
		return false;
	for (size_t i = 0; i < countof(types); i++)
		if ((size_t)(op + n - dot - 1) == 3 && !strncmp(dot + 1, types[i], 3))
			return true;
	return false;
}

/* The function body that starts at p (after its "{" line), up to its "}"
 * line: fx->ints = the predicates that only plain integer compares define.
 * Any other definition (a float compare, a .BOOL compare, and/or/not/mov
 * of predicates, a line of several instructions: inline asm) takes a
 * predicate out; a selp.f32 on the rest selects by something that is not
 * a float comparison, which ptxas cannot make FMNMX.NAN of (measured:
 * tests/gpu/hazards, sel_icmp_*). */
static void scan_int_preds(Fix *fx, const char *p)
{
	Preds ints = {NULL, 0, 0}, others = {NULL, 0, 0};
	while (*p && !(p[0] == '}' && (p[1] == '\n' || !p[1]))) {
		size_t n = strcspn(p, "\n");
		const char *l = p + strspn(p, " \t");
		if (*l == '@')
			l += strcspn(l, " \t"), l += strspn(l, " \t");
		size_t m = n - (size_t)(l - p), op_len = strcspn(l, " \t\n");
		const char *semi = memchr(l, ';', m);
		if (semi && memchr(semi + 1, ';', m - (size_t)(semi + 1 - l))) {
			for (const char *q = l; q + 1 < p + n; q++)
				if (q[0] == '%' && q[1] == 'p')
					add_pred(&others, q, strspn(q + 1, "0123456789p") + 1);
		} else if (op_len < m && !strncmp(l + op_len + strspn(l + op_len, " \t"), "%p", 2)) {
			add_dests(is_int_compare(l, op_len) ? &ints : &others, l, m, op_len);
		}
		p += n + (p[n] == '\n');
	}
	fx->ints.n = 0;
	for (size_t i = 0; i < ints.n; i++)
		if (!has_pred(&others, ints.names[i]))
			add_pred(&fx->ints, ints.names[i], strlen(ints.names[i]));
	free(ints.names);
	free(others.names);
}

/* selp.f32 d, x, y, p  ==>  s = p ? x : y; s = (isnan(y) && !p) ? y : s;
 * s = (isnan(x) && p) ? x : s; d = s  (the guards for register operands),
 * unless only integer compares set p.  The same for selp.b32 when p comes
 * from a float compare. */
static bool fix_selp_f32(Buf *out, const char *g, const char *line, size_t n, const Fix *fx, unsigned id)
{
	Operand ops[4];
	const char *sel = "selp.f32";
	if (split_operands(line, n, sel, ops, 4) != 4) {
		sel = "selp.b32";
		if (split_operands(line, n, sel, ops, 4) != 4 || !has_pred(&fx->floats, ops[3]))
			return false;
	} else if (has_pred(&fx->ints, ops[3])) {
		return false;
	}
	if (ops[3][0] == '!')
		return false;
	char s[24], q[24];
	snprintf(s, sizeof s, "%%oxs%u", id);
	snprintf(q, sizeof q, "%%oxq%u", id);
	buf_printf(out, "{ .reg .b32 %s; .reg .pred %s; %s%s %s, %s, %s, %s; ", s, q, g, sel, s, ops[1], ops[2], ops[3]);
	for (int i = 2; i >= 1; i--)
		if (is_reg(ops[i]))
			buf_printf(out, "%ssetp.nan.and.f32 %s, %s, %s, %s%s; %s%s %s, %s, %s, %s; ", g, q, ops[i], ops[i],
			           i == 2 ? "!" : "", ops[3], g, sel, s, ops[i], s, q);
	buf_printf(out, "%smov.b32 %s, %s; }", g, ops[0], s);
	return true;
}

/* neg/abs.f32/f64 d, a  ==>  xor/and of the sign bit. */
static bool fix_sign(Buf *out, const char *g, const char *line, size_t n)
{
	static const struct {
		const char *op, *with;
	} rules[] = {
		{"neg.f32", "xor.b32 %s, %s, 0x80000000;"},
		{"abs.f32", "and.b32 %s, %s, 0x7FFFFFFF;"},
		{"neg.f64", "xor.b64 %s, %s, 0x8000000000000000;"},
		{"abs.f64", "and.b64 %s, %s, 0x7FFFFFFFFFFFFFFF;"},
	};
	Operand ops[2];
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (split_operands(line, n, rules[i].op, ops, 2) == 2) {
			buf_printf(out, "%s", g);
			buf_printf(out, rules[i].with, ops[0], ops[1]);
			return true;
		}
	return false;
}

/* The guard of an instruction ("@%p1 ", "@!%p1 "), copied into g; its
 * length with the blanks after it, 0 when there is none. */
static size_t guard_of(const char *l, size_t n, char *g, size_t gcap)
{
	size_t gn = l[0] == '@' ? strcspn(l, " \t") : 0;
	if (!gn || gn >= gcap - 1 || gn >= n) {
		g[0] = 0;
		return 0;
	}
	memcpy(g, l, gn);
	strcpy(g + gn, " ");
	return gn + strspn(l + gn, " \t");
}

static void fix_line(Buf *out, const char *p, size_t n, Fix *fx)
{
	if (n == 1 && p[0] == '{') {   /* a function body begins */
		fx->floats.n = 0;
		scan_int_preds(fx, p + 1 + (p[1] == '\n'));
	}
	size_t ind = strspn(p, " \t");
	buf_add(out, p, ind);
	const char *l = p + ind;
	char g[40];
	size_t gn = guard_of(l, n - ind, g, sizeof g);
	const char *ins = l + gn;
	size_t m = n - ind - gn;
	note_float_pred(fx, ins, m);
	if (!fix_int16(out, g, ins, m, fx->id) && !fix_int_abs(out, g, ins, m, fx->id) && !fix_selp_f32(out, g, ins, m, fx, fx->id) && !fix_sign(out, g, ins, m))
		buf_add(out, l, n - ind);
	else
		fx->id++;
}

char *emit_fix_ptx(char *ptx, size_t *len)
{
	Buf out = {NULL, 0, 0};
	Fix fx = {{NULL, 0, 0}, {NULL, 0, 0}, 0};
	buf_add(&out, "", 0);
	for (const char *p = ptx; *p;) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		fix_line(&out, p, n, &fx);
		if (eol)
			buf_add(&out, "\n", 1);
		p += n + (eol != NULL);
	}
	free(ptx);
	free(fx.floats.names);
	free(fx.ints.names);
	if (len)
		*len = out.len;
	return out.s;
}
