/* oxemu_mma.c: the host emulator's warp matrix operations (mma,
 * ldmatrix, stmatrix: warp-collective, with the PTX ISA's fragments) and
 * cp.async (queued per thread until its wait_group). */
#include "oxemu_impl.h"

/* ---- warp matrix operations (the registry's mma, ldmatrix and stmatrix rows),
 * warp-collective like the shuffles: every lane gives its registers, each
 * computes its own part of the result from all of them, with the PTX
 * ISA's fragment layouts (groupID g = lane / 4, t = lane % 4):
 *   A 16 x 16, row: a0 {A[g][2t], A[g][2t+1]}, a1 the same at row g + 8,
 *     a2, a3 at columns + 8 (the low half of a register is the first)
 *   B 16 x 8, col: b0 {B[2t][g], B[2t+1][g]}, b1 at rows + 8
 *   C, D 16 x 8: c0, c1 = C[g][2t], C[g][2t+1]; c2, c3 at row g + 8
 * The products of two bf16 / f16 values are exact in double; the sum of
 * the 16 products and C is taken in double and rounded to f32 once.  The
 * tensor cores' order and intermediate precision are not specified by the
 * ISA: results may differ from the GPU's in the last bits of f32 (tests
 * state their tolerance; sums of small integers are exact on both). */

double oxemu_bf16_value(unsigned h)
{
	uint32_t u = (uint32_t)(h & 0xffffu) << 16;
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

double oxemu_f16_value(unsigned h)
{
	return __oxide_host_cvt_f32_f16((unsigned short)h);
}

/* every lane's registers r0, r1 (one 64-bit rendezvous), copied out */
void oxemu_warp_gather2(unsigned r0, unsigned r1, uint32_t out[32][2])
{
	uint32_t present;
	const uint64_t *v = oxemu_warp_exchange(0xffffffffu, r0 | (uint64_t)r1 << 32, &present);

	for (unsigned i = 0; i < 32; i++) {
		out[i][0] = (uint32_t)v[i];
		out[i][1] = (uint32_t)(v[i] >> 32);
	}
}

/* the 16-bit element of a fragment register: half h of register r of lane */
unsigned oxemu_half_of(uint32_t reg, unsigned h)
{
	return h ? reg >> 16 : reg & 0xffffu;
}

static void mma_m16n8k16(float *d, const unsigned a[4], const unsigned b[2], const float c[4],
                         double (*value)(unsigned))
{
	uint32_t alo[32][2], ahi[32][2], bs[32][2];
	unsigned lane = oxemu_my_lane(), g = lane / 4, t = lane % 4;

	oxemu_warp_gather2(a[0], a[1], alo);
	oxemu_warp_gather2(a[2], a[3], ahi);
	oxemu_warp_gather2(b[0], b[1], bs);
	for (unsigned i = 0; i < 4; i++) {
		unsigned row = g + (i >= 2 ? 8 : 0), col = 2 * t + (i & 1);
		double sum = c[i];
		for (unsigned k = 0; k < 16; k++) {
			/* A[row][k]: lane 4 (row % 8) + (k % 8) / 2, register
			 * (row >= 8) + 2 (k >= 8), half k % 2 */
			unsigned al = 4 * (row % 8) + (k % 8) / 2, ar = (row >= 8) + 2 * (k >= 8);
			uint32_t areg = ar < 2 ? alo[al][ar] : ahi[al][ar - 2];
			/* B[k][col]: lane 4 col + (k % 8) / 2, register k >= 8,
			 * half k % 2 */
			unsigned bl = 4 * col + (k % 8) / 2;
			sum += value(oxemu_half_of(areg, k % 2)) * value(oxemu_half_of(bs[bl][k >= 8], k % 2));
		}
		d[i] = (float)sum;
	}
}

void __oxide_host_mma_m16n8k16_f32_bf16(float *d, unsigned a0, unsigned a1, unsigned a2, unsigned a3,
                                        unsigned b0, unsigned b1, float c0, float c1, float c2, float c3)
{
	const unsigned a[4] = { a0, a1, a2, a3 }, b[2] = { b0, b1 };
	const float c[4] = { c0, c1, c2, c3 };
	mma_m16n8k16(d, a, b, c, oxemu_bf16_value);
}

void __oxide_host_mma_m16n8k16_f32_f16(float *d, unsigned a0, unsigned a1, unsigned a2, unsigned a3,
                                       unsigned b0, unsigned b1, float c0, float c1, float c2, float c3)
{
	const unsigned a[4] = { a0, a1, a2, a3 }, b[2] = { b0, b1 };
	const float c[4] = { c0, c1, c2, c3 };
	mma_m16n8k16(d, a, b, c, oxemu_f16_value);
}

/* tf32 (mma.m16n8k8 .tf32): an operand's top 19 bits (sign, exponent, 10
 * mantissa bits).  The emulator ignores the low 13 bits of an operand
 * that cvt.rna.tf32.f32 did not round (truncation); what the tensor cores
 * do with them is implementation-defined (tests/gpu/prims counts the
 * results that differ from the GPU's when they are set). */
static double tf32_value(uint32_t u)
{
	float f;

	u &= 0xffffe000u;
	memcpy(&f, &u, sizeof f);
	return f;
}

/* mma.m16n8k8 .tf32: A 16 x 8 (a0 A[g][t], a1 A[g+8][t], a2, a3 at
 * column t + 4), B 8 x 8 (b0 B[t][g], b1 B[t+4][g]), C and D as m16n8k16;
 * the 8 products (exact in double) and C summed in double, rounded once */
static void mma_m16n8k8_tf32(float *d, const unsigned a[4], const unsigned b[2], const float c[4])
{
	uint32_t alo[32][2], ahi[32][2], bs[32][2];
	unsigned lane = oxemu_my_lane(), g = lane / 4, t = lane % 4;

	oxemu_warp_gather2(a[0], a[1], alo);
	oxemu_warp_gather2(a[2], a[3], ahi);
	oxemu_warp_gather2(b[0], b[1], bs);
	for (unsigned i = 0; i < 4; i++) {
		unsigned row = g + (i >= 2 ? 8 : 0), col = 2 * t + (i & 1);
		double sum = c[i];
		for (unsigned k = 0; k < 8; k++) {
			/* A[row][k]: lane 4 (row % 8) + k % 4, register (row >= 8) + 2 (k >= 4) */
			unsigned al = 4 * (row % 8) + k % 4, ar = (row >= 8) + 2 * (k >= 4);
			uint32_t areg = ar < 2 ? alo[al][ar] : ahi[al][ar - 2];
			/* B[k][col]: lane 4 col + k % 4, register k >= 4 */
			sum += tf32_value(areg) * tf32_value(bs[4 * col + k % 4][k >= 4]);
		}
		d[i] = (float)sum;
	}
}

void __oxide_host_mma_m16n8k8_f32_tf32(float *d, unsigned a0, unsigned a1, unsigned a2, unsigned a3,
                                       unsigned b0, unsigned b1, float c0, float c1, float c2, float c3)
{
	const unsigned a[4] = { a0, a1, a2, a3 }, b[2] = { b0, b1 };
	const float c[4] = { c0, c1, c2, c3 };
	mma_m16n8k8_tf32(d, a, b, c);
}

/* cvt.rna.tf32.f32: to nearest, ties away (adding half of the 13 low bits'
 * unit carries into the exponent as it should), low 13 bits cleared;
 * infinities and NaNs are only cleared (as the hardware's SASS does:
 * FSETP.GEU |x|, +INF guards the add) */
unsigned __oxide_host_cvt_rna_tf32_f32(float x)
{
	uint32_t u;

	memcpy(&u, &x, sizeof u);
	if ((u & 0x7f800000u) != 0x7f800000u)
		u += 0x1000u;
	return u & 0xffffe000u;
}

/* byte k of a register of 8-bit elements, as a signed or unsigned value */
static int64_t i8_of(uint32_t reg, unsigned k, int is_signed)
{
	unsigned v = (reg >> (8 * k)) & 0xffu;

	return is_signed ? (int64_t)(int8_t)v : (int64_t)v;
}

/* mma.m16n8k32 .s8 / .u8 -> .s32: A 16 x 32 (a0 A[g][4t..4t+4], a1 at row
 * g + 8, a2, a3 at columns + 16; the lowest-indexed element in the low
 * byte), B 32 x 8 (b0 B[4t..4t+4][g], b1 at rows + 16), C and D as
 * m16n8k16.  Exact: the sum in 64 bits, then wrapped to 32 (the
 * hardware's s32 adds) or, with .satfinite, clamped. */
static void mma_m16n8k32_i8(int *d, const unsigned a[4], const unsigned b[2], const int c[4], int is_signed,
                            int sat)
{
	uint32_t alo[32][2], ahi[32][2], bs[32][2];
	unsigned lane = oxemu_my_lane(), g = lane / 4, t = lane % 4;

	oxemu_warp_gather2(a[0], a[1], alo);
	oxemu_warp_gather2(a[2], a[3], ahi);
	oxemu_warp_gather2(b[0], b[1], bs);
	for (unsigned i = 0; i < 4; i++) {
		unsigned row = g + (i >= 2 ? 8 : 0), col = 2 * t + (i & 1);
		int64_t sum = c[i];
		for (unsigned k = 0; k < 32; k++) {
			unsigned kk = k % 16, hi = k >= 16;
			/* A[row][k]: lane 4 (row % 8) + kk / 4, register (row >= 8) + 2 hi, byte kk % 4 */
			unsigned al = 4 * (row % 8) + kk / 4, ar = (row >= 8) + 2 * hi;
			uint32_t areg = ar < 2 ? alo[al][ar] : ahi[al][ar - 2];
			/* B[k][col]: lane 4 col + kk / 4, register hi, byte kk % 4 */
			sum += i8_of(areg, kk % 4, is_signed) * i8_of(bs[4 * col + kk / 4][hi], kk % 4, is_signed);
		}
		if (sat)
			d[i] = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : (int)sum;
		else
			d[i] = (int)(uint32_t)(uint64_t)sum;
	}
}

#define MMA_I8_HOST(name, is_signed, sat) \
	void __oxide_host_##name(int *d, unsigned a0, unsigned a1, unsigned a2, unsigned a3, unsigned b0, \
	                         unsigned b1, int c0, int c1, int c2, int c3) \
	{ \
		const unsigned a[4] = { a0, a1, a2, a3 }, b[2] = { b0, b1 }; \
		const int c[4] = { c0, c1, c2, c3 }; \
		mma_m16n8k32_i8(d, a, b, c, is_signed, sat); \
	}
MMA_I8_HOST(mma_m16n8k32_s32_s8, 1, 0)
MMA_I8_HOST(mma_m16n8k32_s32_u8, 0, 0)
MMA_I8_HOST(mma_m16n8k32_s32_s8_satfinite, 1, 1)
MMA_I8_HOST(mma_m16n8k32_s32_u8_satfinite, 0, 1)
#undef MMA_I8_HOST

static uint16_t load_u16(uint64_t addr)
{
	uint16_t v;
	memcpy(&v, (const void *)(uintptr_t)addr, sizeof v);
	return v;
}

/* the row address of a lane of ldmatrix / stmatrix that gives one
 * (lane < 8 n) is 16-byte aligned */
static void matrix_row_check(const char *op, const void *p, unsigned n)
{
	if (oxemu_my_lane() < 8 * n && (uintptr_t)p % 16 != 0)
		oxemu_fail_launch("%s: lane %u's row address %p is not 16-byte aligned (a misaligned address on a GPU)", op,
		                  oxemu_my_lane(), p);
}

/* ldmatrix: every lane's row address; lane l receives, of each of the n
 * matrices, row l / 4 at columns 2 (l % 4), + 1 (trans: column l / 4 at
 * rows 2 (l % 4), + 1) */
static void ldmatrix(unsigned *d, void *p, unsigned n, int trans)
{
	uint32_t present;
	uint64_t rows[32];
	const uint64_t *v;
	unsigned lane = oxemu_my_lane();

	matrix_row_check("ldmatrix", p, n);
	v = oxemu_warp_exchange(0xffffffffu, (uint64_t)(uintptr_t)p, &present);
	memcpy(rows, v, sizeof rows);
	for (unsigned j = 0; j < n; j++) {
		const uint64_t *m = rows + 8 * j;
		uint16_t lo, hi;
		if (trans) {
			lo = load_u16(m[2 * (lane % 4)] + 2 * (lane / 4));
			hi = load_u16(m[2 * (lane % 4) + 1] + 2 * (lane / 4));
		} else {
			lo = load_u16(m[lane / 4] + 4 * (lane % 4));
			hi = load_u16(m[lane / 4] + 4 * (lane % 4) + 2);
		}
		d[j] = lo | (uint32_t)hi << 16;
	}
}

void __oxide_host_ldmatrix_x1(unsigned *d, void *p) { ldmatrix(d, p, 1, 0); }
void __oxide_host_ldmatrix_x2(unsigned *d, void *p) { ldmatrix(d, p, 2, 0); }
void __oxide_host_ldmatrix_x4(unsigned *d, void *p) { ldmatrix(d, p, 4, 0); }
void __oxide_host_ldmatrix_x1_trans(unsigned *d, void *p) { ldmatrix(d, p, 1, 1); }
void __oxide_host_ldmatrix_x2_trans(unsigned *d, void *p) { ldmatrix(d, p, 2, 1); }
void __oxide_host_ldmatrix_x4_trans(unsigned *d, void *p) { ldmatrix(d, p, 4, 1); }

static void store_u16(uint64_t addr, uint16_t v)
{
	memcpy((void *)(uintptr_t)addr, &v, sizeof v);
}

/* stmatrix, ldmatrix's inverse: every lane's row address and registers;
 * lane l < 8 n stores row l % 8 of matrix l / 8, element c of which is,
 * in the registers j = l / 8, half c % 2 of lane 4 (l % 8) + c / 2 (trans:
 * the transposed matrix's, half (l % 8) % 2 of lane 4 c + (l % 8) / 2) */
static void stmatrix(void *p, const unsigned *r, unsigned n, int trans)
{
	uint32_t present, lo[32][2], hi[32][2];
	uint64_t rows[32];
	const uint64_t *v;
	unsigned lane = oxemu_my_lane(), j = lane / 8, row = lane % 8;

	matrix_row_check("stmatrix", p, n);
	v = oxemu_warp_exchange(0xffffffffu, (uint64_t)(uintptr_t)p, &present);
	memcpy(rows, v, sizeof rows);
	oxemu_warp_gather2(r[0], n > 1 ? r[1] : 0, lo);
	if (n == 4)
		oxemu_warp_gather2(r[2], r[3], hi);
	if (j >= n)
		return;
	for (unsigned c = 0; c < 8; c++) {
		unsigned src = trans ? 4 * c + row / 2 : 4 * row + c / 2, h = trans ? row % 2 : c % 2;
		uint32_t reg = j < 2 ? lo[src][j] : hi[src][j - 2];
		store_u16(rows[lane] + 2 * c, (uint16_t)oxemu_half_of(reg, h));
	}
}

void __oxide_host_stmatrix_x1(void *p, unsigned r0) { stmatrix(p, &r0, 1, 0); }
void __oxide_host_stmatrix_x1_trans(void *p, unsigned r0) { stmatrix(p, &r0, 1, 1); }

void __oxide_host_stmatrix_x2(void *p, unsigned r0, unsigned r1)
{
	const unsigned r[2] = { r0, r1 };
	stmatrix(p, r, 2, 0);
}

void __oxide_host_stmatrix_x2_trans(void *p, unsigned r0, unsigned r1)
{
	const unsigned r[2] = { r0, r1 };
	stmatrix(p, r, 2, 1);
}

void __oxide_host_stmatrix_x4(void *p, unsigned r0, unsigned r1, unsigned r2, unsigned r3)
{
	const unsigned r[4] = { r0, r1, r2, r3 };
	stmatrix(p, r, 4, 0);
}

void __oxide_host_stmatrix_x4_trans(void *p, unsigned r0, unsigned r1, unsigned r2, unsigned r3)
{
	const unsigned r[4] = { r0, r1, r2, r3 };
	stmatrix(p, r, 4, 1);
}

/* ---- asynchronous copies (the registry's cp_async rows): each thread's
 * copies wait in its queue and land when a cp.async.wait_group waits for
 * their group, so a kernel that reads a tile before waiting for it reads
 * what was there before, as it may on the GPU. ---- */

static void async_complete(Fiber *f, unsigned i)
{
	memcpy(f->acp[i].dst, f->acp[i].src, f->acp[i].n);
	memmove(&f->acp[i], &f->acp[i + 1], (f->nacp - i - 1) * sizeof f->acp[0]);
	f->nacp--;
}

static void cp_async(void *dst, const void *src, unsigned n)
{
	Fiber *f = oxemu_running != NULL ? oxemu_running->cur : NULL;

	if (((uintptr_t)dst | (uintptr_t)src) % n != 0)
		oxemu_fail_launch("cp.async of %u bytes from %p to %p: an address is not %u-byte aligned "
		                  "(a misaligned address on a GPU)", n, src, dst, n);
	if (f == NULL) {              /* a kernel called directly: one thread */
		memcpy(dst, src, n);
		return;
	}
	if (f->nacp == ASYNC_COPIES)
		async_complete(f, 0);
	f->acp[f->nacp++] = (AsyncCopy){dst, src, n, f->committed};
}

void __oxide_host_cp_async_ca_4(void *dst, void *src) { cp_async(dst, src, 4); }
void __oxide_host_cp_async_ca_8(void *dst, void *src) { cp_async(dst, src, 8); }
void __oxide_host_cp_async_ca_16(void *dst, void *src) { cp_async(dst, src, 16); }
void __oxide_host_cp_async_cg_16(void *dst, void *src) { cp_async(dst, src, 16); }

void __oxide_host_cp_async_commit_group(void)
{
	if (oxemu_running != NULL)
		oxemu_running->cur->committed++;
}

/* all but the n most recent committed groups complete */
static void wait_group(unsigned n)
{
	Fiber *f = oxemu_running != NULL ? oxemu_running->cur : NULL;

	if (f == NULL || f->committed <= n)
		return;
	for (unsigned i = 0; i < f->nacp;)
		if (f->acp[i].group < f->committed - n)
			async_complete(f, i);
		else
			i++;
}

void __oxide_host_cp_async_wait_group_0(void) { wait_group(0); }
void __oxide_host_cp_async_wait_group_1(void) { wait_group(1); }
void __oxide_host_cp_async_wait_group_2(void) { wait_group(2); }
void __oxide_host_cp_async_wait_group_3(void) { wait_group(3); }
void __oxide_host_cp_async_wait_group_4(void) { wait_group(4); }
void __oxide_host_cp_async_wait_group_5(void) { wait_group(5); }
void __oxide_host_cp_async_wait_group_6(void) { wait_group(6); }
void __oxide_host_cp_async_wait_group_7(void) { wait_group(7); }

void __oxide_host_cp_async_wait_all(void)
{
	Fiber *f = oxemu_running != NULL ? oxemu_running->cur : NULL;

	while (f != NULL && f->nacp > 0)
		async_complete(f, 0);
}
