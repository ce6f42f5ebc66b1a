#!/usr/bin/env python3
"""gen.py: writes probes.ll (one NVPTX kernel per pattern) and ref.h (the
CPU reference of each, for host.c) for the ptxas hazard probe (README).

Every kernel is  NAME(ptr out, i32 n, i64 k, i32 swap, i32 mul): thread i < n
decodes its inputs from i (and the parameter k, the other operand, which
the host varies), computes one pattern and stores the result zero-extended
to 64 bits at out[i].  Inputs reach the code only through i and k, so
neither LLVM nor ptxas can fold them.

Domains: U8/U16 every value; P8 every pair; P16 every value against k
(host: 16 boundary values, both operand orders); F32 every NaN (both
signs, quiet and signalling) and +-inf against k; F32S 2^24 values spread
over all of f32 against k; F64 2^24 NaNs and +-inf against k.  Float
kernels decode i * mul, so that the host can sample the domain (mul odd).""" 
import sys

OPS = []   # (name, domain, ir_body, c_expr, result kind)

def op(name, dom, ir, c, res="T"):
    OPS.append((name, dom, ir, c, res))

# ---------------------------------------------------------- 8/16-bit ints
for W in (8, 16):
    U, P = "U%d" % W, "P%d" % W
    T = "i%d" % W
    n = lambda s: "i%d_%s" % (W, s)
    # unary, every value
    op(n("neg"), U, "%r = sub {T} 0, %x", "-sx")
    op(n("abs"), U, "%r = call {T} @llvm.abs.{T}({T} %x, i1 false)", "sx < 0 ? -sx : sx")
    op(n("abs_sel"), U, "%c = icmp slt {T} %x, 0\n%m = sub {T} 0, %x\n%r = select i1 %c, {T} %m, {T} %x", "sx < 0 ? -sx : sx")
    op(n("satneg"), U, "%r = call {T} @llvm.ssub.sat.{T}({T} 0, {T} %x)", "SAT(-sx)")
    op(n("satabs"), U, "%c = icmp slt {T} %x, 0\n%m = call {T} @llvm.ssub.sat.{T}({T} 0, {T} %x)\n%r = select i1 %c, {T} %m, {T} %x", "SAT(sx < 0 ? -sx : sx)")
    op(n("negovf"), U, "%s = call {{{T}, i1}} @llvm.ssub.with.overflow.{T}({T} 0, {T} %x)\n%r = extractvalue {{{T}, i1}} %s, 1", "sx == MIN", "i1")
    op(n("neg_lt0"), U, "%m = sub {T} 0, %x\n%r = icmp slt {T} %m, 0", "S(-sx) < 0", "i1")
    op(n("neg_gt0"), U, "%m = sub {T} 0, %x\n%r = icmp sgt {T} %m, 0", "S(-sx) > 0", "i1")
    op(n("neg_eqmin"), U, "%m = sub {T} 0, %x\n%r = icmp eq {T} %m, {MIN}", "S(-sx) == MIN", "i1")
    op(n("neg_gtx"), U, "%m = sub {T} 0, %x\n%r = icmp sgt {T} %m, %x", "S(-sx) > sx", "i1")
    op(n("neg_sext"), U, "%m = sub {T} 0, %x\n%r = sext {T} %m to i32", "S(-sx)", "i32")
    op(n("neg_ashr"), U, "%m = sub {T} 0, %x\n%r = ashr {T} %m, {WM1}", "S(-sx) >> (W - 1)")
    op(n("neg_sdiv2"), U, "%m = sub {T} 0, %x\n%r = sdiv {T} %m, 2", "S(-sx) / 2")
    op(n("inc_ltx"), U, "%m = add {T} %x, 1\n%r = icmp slt {T} %m, %x", "S(sx + 1) < sx", "i1")
    op(n("dec_gtx"), U, "%m = sub {T} %x, 1\n%r = icmp sgt {T} %m, %x", "S(sx - 1) > sx", "i1")
    op(n("dbl_lt0"), U, "%m = add {T} %x, %x\n%r = icmp slt {T} %m, 0", "S(2 * sx) < 0", "i1")
    op(n("dbl_sext"), U, "%m = add {T} %x, %x\n%r = sext {T} %m to i32", "S(2 * sx)", "i32")
    op(n("mul3_lt0"), U, "%m = mul {T} %x, 3\n%r = icmp slt {T} %m, 0", "S(3 * sx) < 0", "i1")
    op(n("signum"), U, "%g = icmp sgt {T} %x, 0\n%l = icmp slt {T} %x, 0\n%gz = zext i1 %g to {T}\n%lz = zext i1 %l to {T}\n%r = sub {T} %gz, %lz", "(sx > 0) - (sx < 0)")
    op(n("satneg_sext"), U, "%m = call {T} @llvm.ssub.sat.{T}({T} 0, {T} %x)\n%r = sext {T} %m to i32", "SAT(-sx)", "i32")
    op(n("uinc_sat"), U, "%r = call {T} @llvm.uadd.sat.{T}({T} %x, {T} 1)", "ux == UMAX ? UMAX : ux + 1")
    op(n("udec_sat"), U, "%r = call {T} @llvm.usub.sat.{T}({T} %x, {T} 1)", "ux == 0 ? 0 : ux - 1")
    op(n("uneg_zext"), U, "%m = sub {T} 0, %x\n%r = zext {T} %m to i32", "W_(-sx)", "i32")
    op(n("uinc_ltx"), U, "%m = add {T} %x, 1\n%r = icmp ult {T} %m, %x", "W_(ux + 1) < ux", "i1")
    op(n("ctlz"), U, "%r = call {T} @llvm.ctlz.{T}({T} %x, i1 false)", "clz_w(ux)")
    op(n("ctpop"), U, "%r = call {T} @llvm.ctpop.{T}({T} %x)", "__builtin_popcountll(ux)")
    # candidate lowerings: the arithmetic at 32 bits
    op(n("satneg_w32"), U, "%e = sext {T} %x to i32\n%m = sub i32 0, %e\n%c = call i32 @llvm.smin.i32(i32 %m, i32 {MAX})\n%r = trunc i32 %c to {T}", "SAT(-sx)")
    op(n("satabs_w32"), U, "%e = sext {T} %x to i32\n%a = call i32 @llvm.abs.i32(i32 %e, i1 false)\n%c = call i32 @llvm.smin.i32(i32 %a, i32 {MAX})\n%r = trunc i32 %c to {T}", "SAT(sx < 0 ? -sx : sx)")
    op(n("neg_w32"), U, "%e = sext {T} %x to i32\n%m = sub i32 0, %e\n%r = trunc i32 %m to {T}", "-sx")
    # binary, every pair (8) or against k (16)
    op(n("add"), P, "%r = add {T} %a, %b", "sa + sb")
    op(n("sub"), P, "%r = sub {T} %a, %b", "sa - sb")
    op(n("mul"), P, "%r = mul {T} %a, %b", "sa * sb")
    op(n("sdiv"), P, "%z = icmp eq {T} %b, 0\n%o = icmp eq {T} %b, -1\n%b1 = select i1 %z, {T} 1, {T} %b\n%b2 = select i1 %o, {T} 1, {T} %b1\n%q = sdiv {T} %a, %b2\n%na = sub {T} 0, %a\n%r = select i1 %o, {T} %na, {T} %q", "sb == 0 ? sa : sb == -1 ? -sa : sa / sb")
    op(n("srem"), P, "%z = icmp eq {T} %b, 0\n%o = icmp eq {T} %b, -1\n%b1 = select i1 %z, {T} 1, {T} %b\n%b2 = select i1 %o, {T} 1, {T} %b1\n%r = srem {T} %a, %b2", "(sb == 0 || sb == -1) ? 0 : sa % sb")
    op(n("udiv"), P, "%z = icmp eq {T} %b, 0\n%b1 = select i1 %z, {T} 1, {T} %b\n%r = udiv {T} %a, %b1", "ub == 0 ? ua : ua / ub")
    op(n("urem"), P, "%z = icmp eq {T} %b, 0\n%b1 = select i1 %z, {T} 1, {T} %b\n%r = urem {T} %a, %b1", "ub == 0 ? 0 : ua % ub")
    op(n("sadd_sat"), P, "%r = call {T} @llvm.sadd.sat.{T}({T} %a, {T} %b)", "SAT(sa + sb)")
    op(n("ssub_sat"), P, "%r = call {T} @llvm.ssub.sat.{T}({T} %a, {T} %b)", "SAT(sa - sb)")
    op(n("uadd_sat"), P, "%r = call {T} @llvm.uadd.sat.{T}({T} %a, {T} %b)", "ua + ub > UMAX ? UMAX : ua + ub")
    op(n("usub_sat"), P, "%r = call {T} @llvm.usub.sat.{T}({T} %a, {T} %b)", "ua < ub ? 0 : ua - ub")
    op(n("smul_sat"), P, "%s = call {{{T}, i1}} @llvm.smul.with.overflow.{T}({T} %a, {T} %b)\n%v = extractvalue {{{T}, i1}} %s, 0\n%o = extractvalue {{{T}, i1}} %s, 1\n%x1 = xor {T} %a, %b\n%ng = icmp slt {T} %x1, 0\n%lim = select i1 %ng, {T} {MIN}, {T} {MAX}\n%r = select i1 %o, {T} %lim, {T} %v", "SAT(sa * sb)")
    op(n("sadd_ovf"), P, "%s = call {{{T}, i1}} @llvm.sadd.with.overflow.{T}({T} %a, {T} %b)\n%r = extractvalue {{{T}, i1}} %s, 1", "S(sa + sb) != sa + sb", "i1")
    op(n("ssub_ovf"), P, "%s = call {{{T}, i1}} @llvm.ssub.with.overflow.{T}({T} %a, {T} %b)\n%r = extractvalue {{{T}, i1}} %s, 1", "S(sa - sb) != sa - sb", "i1")
    op(n("smul_ovf"), P, "%s = call {{{T}, i1}} @llvm.smul.with.overflow.{T}({T} %a, {T} %b)\n%r = extractvalue {{{T}, i1}} %s, 1", "S(sa * sb) != sa * sb", "i1")
    op(n("uadd_ovf"), P, "%s = call {{{T}, i1}} @llvm.uadd.with.overflow.{T}({T} %a, {T} %b)\n%r = extractvalue {{{T}, i1}} %s, 1", "ua + ub > UMAX", "i1")
    op(n("usub_ovf"), P, "%s = call {{{T}, i1}} @llvm.usub.with.overflow.{T}({T} %a, {T} %b)\n%r = extractvalue {{{T}, i1}} %s, 1", "ua < ub", "i1")
    op(n("umul_ovf"), P, "%s = call {{{T}, i1}} @llvm.umul.with.overflow.{T}({T} %a, {T} %b)\n%r = extractvalue {{{T}, i1}} %s, 1", "ua * ub > UMAX", "i1")
    op(n("smin"), P, "%r = call {T} @llvm.smin.{T}({T} %a, {T} %b)", "sa < sb ? sa : sb")
    op(n("smax"), P, "%r = call {T} @llvm.smax.{T}({T} %a, {T} %b)", "sa > sb ? sa : sb")
    op(n("umin"), P, "%r = call {T} @llvm.umin.{T}({T} %a, {T} %b)", "ua < ub ? ua : ub")
    op(n("umax"), P, "%r = call {T} @llvm.umax.{T}({T} %a, {T} %b)", "ua > ub ? ua : ub")
    op(n("add_lta"), P, "%m = add {T} %a, %b\n%r = icmp slt {T} %m, %a", "S(sa + sb) < sa", "i1")
    op(n("add_lt0"), P, "%m = add {T} %a, %b\n%r = icmp slt {T} %m, 0", "S(sa + sb) < 0", "i1")
    op(n("sub_lt0"), P, "%m = sub {T} %a, %b\n%r = icmp slt {T} %m, 0", "S(sa - sb) < 0", "i1")
    op(n("sub_ltb"), P, "%m = sub {T} %a, %b\n%r = icmp slt {T} %m, %b", "S(sa - sb) < sb", "i1")
    op(n("mul_lt0"), P, "%m = mul {T} %a, %b\n%r = icmp slt {T} %m, 0", "S(sa * sb) < 0", "i1")
    op(n("add_sext"), P, "%m = add {T} %a, %b\n%r = sext {T} %m to i32", "S(sa + sb)", "i32")
    op(n("sub_sext"), P, "%m = sub {T} %a, %b\n%r = sext {T} %m to i32", "S(sa - sb)", "i32")
    op(n("mul_sext"), P, "%m = mul {T} %a, %b\n%r = sext {T} %m to i32", "S(sa * sb)", "i32")
    op(n("add_ult"), P, "%m = add {T} %a, %b\n%r = icmp ult {T} %m, %a", "W_(ua + ub) < ua", "i1")
    op(n("add_ashr1"), P, "%m = add {T} %a, %b\n%r = ashr {T} %m, 1", "S(sa + sb) >> 1")
    op(n("add_lshr1"), P, "%m = add {T} %a, %b\n%r = lshr {T} %m, 1", "W_(ua + ub) >> 1")
    op(n("shl"), P, "%s = and {T} %b, {WM1}\n%r = shl {T} %a, %s", "ua << (ub & (W - 1))")
    op(n("ashr"), P, "%s = and {T} %b, {WM1}\n%r = ashr {T} %a, %s", "sa >> (ub & (W - 1))")
    op(n("lshr"), P, "%s = and {T} %b, {WM1}\n%r = lshr {T} %a, %s", "ua >> (ub & (W - 1))")
    op(n("rotl"), P, "%r = call {T} @llvm.fshl.{T}({T} %a, {T} %a, {T} %b)", "rotl_w(ua, ub)")
    op(n("absdiff"), P, "%c = icmp slt {T} %a, %b\n%d1 = sub {T} %b, %a\n%d2 = sub {T} %a, %b\n%r = select i1 %c, {T} %d1, {T} %d2", "sa < sb ? sb - sa : sa - sb")
    op(n("slt"), P, "%r = icmp slt {T} %a, %b", "sa < sb", "i1")
    op(n("sle"), P, "%r = icmp sle {T} %a, %b", "sa <= sb", "i1")
    op(n("ult"), P, "%r = icmp ult {T} %a, %b", "ua < ub", "i1")
    op(n("sadd_sat_w32"), P, "%ea = sext {T} %a to i32\n%eb = sext {T} %b to i32\n%m = add i32 %ea, %eb\n%c1 = call i32 @llvm.smin.i32(i32 %m, i32 {MAX})\n%c2 = call i32 @llvm.smax.i32(i32 %c1, i32 {MIN})\n%r = trunc i32 %c2 to {T}", "SAT(sa + sb)")

# i16 negation written so that ptxas never sees neg.s16 (candidates for
# oxidec's rewrite of the PTX), each followed by the consumers that the
# first run found wrong after neg.s16: a signed compare, sext, ashr.
NEG16 = {
    "sub0": "sub.s16 $0, 0, $1;",
    "w32": "{ .reg .b32 t; cvt.s32.s16 t, $1; neg.s32 t, t; cvt.u16.u32 $0, t; }",
    "not1": "{ .reg .b16 t; not.b16 t, $1; add.s16 $0, t, 1; }",
    "mulm1": "mul.lo.s16 $0, $1, -1;",
    "subz": "{ .reg .b16 z; mov.b16 z, 0; sub.s16 $0, z, $1; }",
}
for cname, text in sorted(NEG16.items()):
    m = '%m = call i16 asm "' + text + '", "=h,h"(i16 %x)\n'
    op("i16_neg_%s_gt0" % cname, "U16", m + "%r = icmp sgt i16 %m, 0", "S(-sx) > 0", "i1")
    op("i16_neg_%s_sext" % cname, "U16", m + "%r = sext i16 %m to i32", "S(-sx)", "i32")
    op("i16_neg_%s_ashr" % cname, "U16", m + "%r = ashr i16 %m, 15", "S(-sx) >> 15")
    op("i16_neg_%s_sat" % cname, "U16", m + "%g = icmp sgt i16 %x, 0\n%l = icmp slt i16 %m, 0\n%o = xor i1 %g, %l\n%r = select i1 %o, i16 32767, i16 %m", "SAT(-sx)")
    op("i16_neg_%s_gtx" % cname, "U16", m + "%r = icmp sgt i16 %m, %x", "S(-sx) > sx", "i1")
# other widths and other subtractions from a constant
op("i16_rsub5_gt0", "U16", "%m = sub i16 5, %x\n%r = icmp sgt i16 %m, 0", "S(5 - sx) > 0", "i1")
op("i16_rsub5_sext", "U16", "%m = sub i16 5, %x\n%r = sext i16 %m to i32", "S(5 - sx)", "i32")
op("i16_rsubm1_sext", "U16", "%m = sub i16 -1, %x\n%r = sext i16 %m to i32", "S(-1 - sx)", "i32")
op("i16_mulm1_sext", "U16", "%m = mul i16 %x, -3\n%r = sext i16 %m to i32", "S(-3 * sx)", "i32")
op("i32_neg_sext", "U32B", "%m = sub i32 0, %x\n%r = sext i32 %m to i64", "S(-sx)", "i64")
op("i32_neg_gt0", "U32B", "%m = sub i32 0, %x\n%r = icmp sgt i32 %m, 0", "S(-sx) > 0", "i1")
op("i32_satneg", "U32B", "%r = call i32 @llvm.ssub.sat.i32(i32 0, i32 %x)", "SAT(-sx)")
op("i32_negovf", "U32B", "%s = call {i32, i1} @llvm.ssub.with.overflow.i32(i32 0, i32 %x)\n%r = extractvalue {i32, i1} %s, 1", "sx == MIN", "i1")
op("i32_satabs", "U32B", "%c = icmp slt i32 %x, 0\n%m = call i32 @llvm.ssub.sat.i32(i32 0, i32 %x)\n%r = select i1 %c, i32 %m, i32 %x", "SAT(sx < 0 ? -sx : sx)")
op("i8_neg_sext16", "U8", "%m = sub i8 0, %x\n%r0 = sext i8 %m to i16\n%r = zext i16 %r0 to i32", "(uint16_t)S(-sx)", "i32")
op("i64_neg_gt0", "U64B", "%m = sub i64 0, %x\n%r = icmp sgt i64 %m, 0", "S(0 - (uint64_t)sx) > 0", "i1")
op("i64_satneg", "U64B", "%r = call i64 @llvm.ssub.sat.i64(i64 0, i64 %x)", "sx == MIN ? MAX : -sx")

# Integer abs with a use that reads the sign: ptxas takes abs(x) >= 0,
# but abs(MIN) = MIN (i64::wrapping_abs(MIN).signum() read 1, i32 saturating_abs
# of unsigned_abs(MIN) as i32 read MIN: fuzz seeds 4001673 and 4001050).
ABS_A = "S(sx < 0 ? 0 - (uint64_t)sx : (uint64_t)sx)"
ABS_USES = {
    "lt0": ("%r = icmp slt {T} %a, 0", "@ < 0", "i1"),
    "signum": ("%g = icmp sgt {T} %a, 0\n%l = icmp slt {T} %a, 0\n%gz = zext i1 %g to {T}\n%lz = zext i1 %l to {T}\n%r = sub {T} %gz, %lz", "(@ > 0) - (@ < 0)", "T"),
    "ashr": ("%r = ashr {T} %a, {WM1}", "@ >> (W - 1)", "T"),
    "satabs": ("%c = icmp slt {T} %a, 0\n%m = call {T} @llvm.ssub.sat.{T}({T} 0, {T} %a)\n%r = select i1 %c, {T} %m, {T} %a", "(@ == MIN ? MAX : @ < 0 ? -@ : @)", "T"),
}
# candidate forms of abs for the rewrite, as inline asm that no rewrite reads
ABS_ASM = {
    "xorsub": "{ .reg .b{W} m; shr.s{W} m, $1, {WM1}; xor.b{W} $0, $1, m; sub.s{W} $0, $0, m; }",
    "selp": "{ .reg .b{W} m; .reg .pred p; setp.lt.s{W} p, $1, 0; sub.s{W} m, 0, $1; selp.b{W} $0, m, $1, p; }",
}
for W, dom in ((8, "U8"), (16, "U16"), (32, "U32B"), (64, "U64B")):
    for uname, (ir, c, res) in sorted(ABS_USES.items()):
        c = c.replace("@", ABS_A)
        op("i%d_abs_%s" % (W, uname), dom, "%a = call {T} @llvm.abs.{T}({T} %x, i1 false)\n" + ir, c, res)
        if W >= 32:
            for aname, text in sorted(ABS_ASM.items()):
                cons = "=r,r" if W == 32 else "=l,l"
                asm = text.replace("{W}", str(W)).replace("{WM1}", str(W - 1))
                op("i%d_abs_%s_%s" % (W, aname, uname), dom, '%a = call {T} asm "' + asm + '", "' + cons + '"({T} %x)\n' + ir, c, res)

# ------------------------------------------------------------- floats
def fops(F, dom, I):
    T = "float" if F == 32 else "double"
    S = "-2147483648" if F == 32 else "-9223372036854775808"
    n = lambda s: "f%d_%s_%s" % (F, s, dom.lower())
    op(n("neg"), dom, "%r = fneg {T} %x".replace("{T}", T), "xb ^ SIGN", T)
    op(n("abs"), dom, "%r = call {T} @llvm.fabs.{FT}({T} %x)".replace("{T}", T).replace("{FT}", "f%d" % F), "xb & ~SIGN", T)
    op(n("copysign_xy"), dom, "%r = call {T} @llvm.copysign.{FT}({T} %x, {T} %y)".replace("{T}", T).replace("{FT}", "f%d" % F), "(xb & ~SIGN) | (yb & SIGN)", T)
    op(n("copysign_yx"), dom, "%r = call {T} @llvm.copysign.{FT}({T} %y, {T} %x)".replace("{T}", T).replace("{FT}", "f%d" % F), "(yb & ~SIGN) | (xb & SIGN)", T)
    op(n("minnum"), dom, "%r = call {T} @llvm.minnum.{FT}({T} %x, {T} %y)".replace("{T}", T).replace("{FT}", "f%d" % F), "minnum_ref(x, y, xb, yb)", T)
    op(n("maxnum"), dom, "%r = call {T} @llvm.maxnum.{FT}({T} %x, {T} %y)".replace("{T}", T).replace("{FT}", "f%d" % F), "maxnum_ref(x, y, xb, yb)", T)
    op(n("sel_lt"), dom, "%c = fcmp olt {T} %x, %y\n%r = select i1 %c, {T} %y, {T} %x".replace("{T}", T), "x < y ? yb : xb", T)
    op(n("sel_gt"), dom, "%c = fcmp ogt {T} %x, %y\n%r = select i1 %c, {T} %y, {T} %x".replace("{T}", T), "x > y ? yb : xb", T)
    op(n("sel_lt_x"), dom, "%c = fcmp olt {T} %x, %y\n%r = select i1 %c, {T} %x, {T} %y".replace("{T}", T), "x < y ? xb : yb", T)
    op(n("sel_ge"), dom, "%c = fcmp oge {T} %x, %y\n%r = select i1 %c, {T} %x, {T} %y".replace("{T}", T), "x >= y ? xb : yb", T)
    op(n("sel_ult"), dom, "%c = fcmp ult {T} %x, %y\n%r = select i1 %c, {T} %x, {T} %y".replace("{T}", T), "!(x >= y) ? xb : yb", T)
    hi = "100.0"
    op(n("clamp"), dom, "%c1 = fcmp olt {T} %x, %y\n%v = select i1 %c1, {T} %y, {T} %x\n%c2 = fcmp ogt {T} %v, {HI}\n%r = select i1 %c2, {T} {HI}, {T} %v".replace("{T}", T).replace("{HI}", hi), "clamp_ref(x, y, xb, yb)", T)
    op(n("xorsign"), dom, "%xi = bitcast {T} %x to {I}\n%j = xor {I} %xi, {S}\n%r = bitcast {I} %j to {T}".replace("{T}", T).replace("{I}", I).replace("{S}", S), "xb ^ SIGN", T)

    R = "f" if F == 32 else "d"
    B = "r" if F == 32 else "l"
    M = "0x80000000" if F == 32 else "0x8000000000000000"
    NM = "0x7fffffff" if F == 32 else "0x7fffffffffffffff"
    asm = lambda text, cons, args: '%r = call ' + ("{I}" if "{I}" in args else "{T}") + ' asm "' + text + '", "' + cons + '"(' + args + ')'
    # what LLVM's instruction selection makes at -O0 (and whenever the operand is a float register)
    op(n("neg_ptx"), dom, asm("neg.f%d $0, $1;" % F, "=%s,%s" % (R, R), "{T} %x").replace("{T}", T), "xb ^ SIGN", T)
    op(n("abs_ptx"), dom, asm("abs.f%d $0, $1;" % F, "=%s,%s" % (R, R), "{T} %x").replace("{T}", T), "xb & ~SIGN", T)
    op(n("copysign_ptx"), dom, asm("copysign.f%d $0, $1, $2;" % F, "=%s,%s,%s" % (R, R, R), "{T} %y, {T} %x").replace("{T}", T), "(xb & ~SIGN) | (yb & SIGN)", T)
    # candidate lowerings: integer logic that LLVM cannot fold back
    ib = "%xi = bitcast {T} %x to {I}\n%yi = bitcast {T} %y to {I}\n"
    fb = "\n%r = bitcast {I} %ri to {T}"
    op(n("neg_xorasm"), dom, (ib + asm("xor.b%d $0, $1, %s;" % (F, M), "=%s,%s" % (B, B), "{I} %xi").replace("%r =", "%ri =") + fb).replace("{T}", T).replace("{I}", I), "xb ^ SIGN", T)
    op(n("abs_andasm"), dom, (ib + asm("and.b%d $0, $1, %s;" % (F, NM), "=%s,%s" % (B, B), "{I} %xi").replace("%r =", "%ri =") + fb).replace("{T}", T).replace("{I}", I), "xb & ~SIGN", T)
    if F == 32:
        op(n("copysign_lop3"), dom, (ib + asm("lop3.b32 $0, $1, $2, 0x80000000, 0xD8;", "=r,r,r", "{I} %xi, {I} %yi").replace("%r =", "%ri =") + fb).replace("{T}", T).replace("{I}", I), "(xb & ~SIGN) | (yb & SIGN)", T)
    # candidate compare-selects that keep the NaN operand's bits
    op(n("sel_lt_c_int"), dom, "%c = fcmp olt {T} %x, -1.0\n%xi = bitcast {T} %x to {I}\n%ci = bitcast {T} -1.0 to {I}\n%ri = select i1 %c, {I} %ci, {I} %xi\n%r = bitcast {I} %ri to {T}".replace("{T}", T).replace("{I}", I), "x < -1.0 ? NEG1 : xb", T)
    op(n("sel_lt_c_uge"), dom, "%c = fcmp uge {T} %x, -1.0\n%r = select i1 %c, {T} %x, {T} -1.0".replace("{T}", T), "x < -1.0 ? NEG1 : xb", T)
    op(n("sel_lt_c_nanx"), dom, "%c = fcmp olt {T} %x, -1.0\n%sl = select i1 %c, {T} -1.0, {T} %x\n%u = fcmp uno {T} %x, 0.0\n%r = select i1 %u, {T} %x, {T} %sl".replace("{T}", T), "x < -1.0 ? NEG1 : xb", T)
    op(n("sel_gt_c_nanx"), dom, "%c = fcmp ogt {T} %x, 1.0\n%sl = select i1 %c, {T} 1.0, {T} %x\n%u = fcmp uno {T} %x, 0.0\n%r = select i1 %u, {T} %x, {T} %sl".replace("{T}", T), "x > 1.0 ? POS1 : xb", T)
    op(n("clamp_c_nanx"), dom, "%c1 = fcmp olt {T} %x, -1.0\n%v = select i1 %c1, {T} -1.0, {T} %x\n%c2 = fcmp ogt {T} %v, 1.0\n%w = select i1 %c2, {T} 1.0, {T} %v\n%u = fcmp uno {T} %x, 0.0\n%r = select i1 %u, {T} %x, {T} %w".replace("{T}", T), "x < -1.0 ? NEG1 : x > 1.0 ? POS1 : xb", T)
    op(n("sel_lt_c_asmsel"), dom, "%c = fcmp olt {T} %x, -1.0\n%r = call {T} asm \"selp.{B} $0, $1, $2, $3;\", \"={R},{R},{R},b\"({T} -1.0, {T} %x, i1 %c)".replace("{T}", T).replace("{B}", "f32" if F == 32 else "f64").replace("{R}", "f" if F == 32 else "d"), "x < -1.0 ? NEG1 : xb", T)
    # selects by integer compares, which ptxfix.c leaves unguarded: of the
    # thread's index, and of the operands' bits (no float order for ptxas)
    IS = "int32_t" if F == 32 else "int64_t"
    ONE = "1065353216" if F == 32 else "4607182418800017408"
    op(n("sel_icmp_idx"), dom, "%ib = and i32 %ie, 4\n%c = icmp eq i32 %ib, 0\n%r = select i1 %c, {T} %x, {T} %y".replace("{T}", T), "(in->i & 4) == 0 ? xb : yb", T)
    op(n("sel_icmp_idx_c"), dom, "%c = icmp ult i32 %ie, 3000\n%r = select i1 %c, {T} 1.0, {T} %x".replace("{T}", T), "in->i < 3000 ? POS1 : xb", T)
    op(n("sel_icmp_bits_c"), dom, "%xi = bitcast {T} %x to {I}\n%c = icmp slt {I} %xi, {ONE}\n%r = select i1 %c, {T} 1.0, {T} %x".replace("{T}", T).replace("{I}", I).replace("{ONE}", ONE), "(%s)xb < (%s)POS1 ? POS1 : xb" % (IS, IS), T)
    op(n("sel_icmp_bits_xy"), dom, "%xi = bitcast {T} %x to {I}\n%yi = bitcast {T} %y to {I}\n%c = icmp sgt {I} %xi, %yi\n%r = select i1 %c, {T} %x, {T} %y".replace("{T}", T).replace("{I}", I), "(%s)xb > (%s)yb ? xb : yb" % (IS, IS), T)
    # constant bounds, as Rust code writes them
    op(n("clamp_c"), dom, "%c1 = fcmp olt {T} %x, -1.0\n%v = select i1 %c1, {T} -1.0, {T} %x\n%c2 = fcmp ogt {T} %v, 1.0\n%r = select i1 %c2, {T} 1.0, {T} %v".replace("{T}", T), "x < -1.0 ? NEG1 : x > 1.0 ? POS1 : xb", T)
    op(n("sel_lt_c"), dom, "%c = fcmp olt {T} %x, -1.0\n%r = select i1 %c, {T} -1.0, {T} %x".replace("{T}", T), "x < -1.0 ? NEG1 : xb", T)
    op(n("sel_gt_c"), dom, "%c = fcmp ogt {T} %x, 1.0\n%r = select i1 %c, {T} 1.0, {T} %x".replace("{T}", T), "x > 1.0 ? POS1 : xb", T)
    op(n("sel_lt_c_x"), dom, "%c = fcmp olt {T} %x, 1.0\n%r = select i1 %c, {T} %x, {T} 1.0".replace("{T}", T), "x < 1.0 ? xb : POS1", T)

for d in ("F32", "F32S"):
    fops(32, d, "i32")
fops(64, "F64", "i64")

# ------------------------------------------------------------ emit LLVM IR
DECODE = {
    "U8": "%x = trunc i32 %i to i8",
    "U16": "%x = trunc i32 %i to i16",
    "P8": "%a = trunc i32 %i to i8\n%i8 = lshr i32 %i, 8\n%b = trunc i32 %i8 to i8",
    "P16": "%a0 = trunc i32 %i to i16\n%b0 = trunc i64 %k to i16\n%sw1 = icmp ne i32 %sw, 0\n%a = select i1 %sw1, i16 %b0, i16 %a0\n%b = select i1 %sw1, i16 %a0, i16 %b0",
    "F32": "%ie = mul i32 %i, %mul\n%m = and i32 %ie, 8388607\n%s = and i32 %ie, 8388608\n%s1 = shl i32 %s, 8\n%e = or i32 %m, 2139095040\n%xb = or i32 %e, %s1\n%x0 = bitcast i32 %xb to float\n%kb = trunc i64 %k to i32\n%y0 = bitcast i32 %kb to float\n%sw1 = icmp ne i32 %sw, 0\n%x = select i1 %sw1, float %y0, float %x0\n%y = select i1 %sw1, float %x0, float %y0",
    "F32S": "%ie = mul i32 %i, %mul\n%xb = mul i32 %ie, 2654435761\n%x0 = bitcast i32 %xb to float\n%kb = trunc i64 %k to i32\n%y0 = bitcast i32 %kb to float\n%sw1 = icmp ne i32 %sw, 0\n%x = select i1 %sw1, float %y0, float %x0\n%y = select i1 %sw1, float %x0, float %y0",
    "U32B": "%x = shl i32 %i, 16",
    "U64B": "%i64 = zext i32 %i to i64\n%x = shl i64 %i64, 48",
    "F64": "%ie = mul i32 %i, %mul\n%i64 = zext i32 %ie to i64\n%m = and i64 %i64, 8388607\n%m1 = shl i64 %m, 29\n%l = mul i64 %i64, 2654435769\n%l1 = and i64 %l, 536870911\n%s = and i64 %i64, 8388608\n%s1 = shl i64 %s, 40\n%e = or i64 %m1, 9218868437227405312\n%e1 = or i64 %e, %l1\n%xb = or i64 %e1, %s1\n%x0 = bitcast i64 %xb to double\n%y0 = bitcast i64 %k to double\n%sw1 = icmp ne i32 %sw, 0\n%x = select i1 %sw1, double %y0, double %x0\n%y = select i1 %sw1, double %x0, double %y0",
}
WIDTH = {"U8": 8, "P8": 8, "U16": 16, "P16": 16, "U32B": 32, "U64B": 64}

def to64(res, W):
    t = {"T": "i%d" % W, "i1": "i1", "i32": "i32"}.get(res)
    if res == "i64" or (res == "T" and W == 64):
        return "%r64 = add i64 %r, 0"
    if t:
        return "%r64 = zext " + t + " %r to i64"
    if res == "float":
        return "%rb = bitcast float %r to i32\n%r64 = zext i32 %rb to i64"
    return "%r64 = bitcast double %r to i64"

def ll():
    o = ['target triple = "nvptx64-nvidia-cuda"',
         "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
         "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()",
         "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()"]
    for name, dom, ir, c, res in OPS:
        W = WIDTH.get(dom, 0)
        T = "i%d" % W
        body = ir.replace("{WM1}", str(W - 1)).replace("{T}", T).replace("{MIN}", str(-(1 << (W - 1)) if W else 0)).replace("{MAX}", str((1 << (W - 1)) - 1 if W else 0))
        body = body.replace("{{", "{").replace("}}", "}")
        o.append("define ptx_kernel void @%s(ptr addrspace(1) %%out, i32 %%n, i64 %%k, i32 %%sw, i32 %%mul) {" % name)
        o.append("entry:\n%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n%c0 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n%nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n%bb = mul i32 %c0, %nt\n%i = add i32 %bb, %t\n%in = icmp ult i32 %i, %n\nbr i1 %in, label %go, label %done\ngo:")
        o.append(DECODE[dom])
        o.append(body)
        o.append(to64(res, W))
        o.append("%p = getelementptr i64, ptr addrspace(1) %out, i32 %i\nstore i64 %r64, ptr addrspace(1) %p\nbr label %done\ndone:\nret void\n}")
    return "\n".join(o) + "\n"

def ref():
    o = ["/* ref.h: generated by gen.py; the CPU reference of every probe. */",
         "static const struct probe { const char *name, *dom; int w; } probes[] = {"]
    for name, dom, ir, c, res in OPS:
        o.append('\t{"%s", "%s", %d},' % (name, dom, WIDTH.get(dom, 0)))
    o.append("};")
    o.append("static uint64_t expect(int op, const In *in)\n{\n\tswitch (op) {")
    for j, (name, dom, ir, c, res) in enumerate(OPS):
        W = WIDTH.get(dom, 0)
        if W:
            pre = "INT_PRELUDE(%d, %s);" % (W, {"U32B": "(uint64_t)in->i << 16", "U64B": "(uint64_t)in->i << 48"}.get(dom, "in->i"))
            post = {"T": "W_(%s)", "i1": "(uint64_t)((%s) != 0)", "i32": "(uint64_t)(uint32_t)(int32_t)(%s)", "i64": "(uint64_t)(int64_t)(%s)"}[res] % c
        else:
            pre = {"F32": "F32_PRELUDE(f32_nan_of);", "F32S": "F32_PRELUDE(f32_spread_of);", "F64": "F64_PRELUDE(f64_nan_of);"}[dom]
            post = c
        o.append("\tcase %d: { %s return %s; }" % (j, pre, post))
    o.append("\t}\n\treturn 0;\n}")
    return "\n".join(o) + "\n"

if __name__ == "__main__":
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    open(d + "/probes.ll", "w").write(ll())
    open(d + "/ref.h", "w").write(ref())
    print("%d probes" % len(OPS))
