/* oxide_host_abi.h: the ABI between a module made by `oxidec
 * --target=host` and the host program that runs it by emulation.
 *
 * The module's side: for each kernel K, void __oxide_launch_K(void **args)
 * (args[i] points at the value of K's i-th PTX parameter) and the list
 * __oxide_kernels (every kernel name, each ended by a NUL, then an empty
 * name). src/emit/host.c makes them; oxemu.c finds them with dlsym.
 *
 * The program's side, declared below: the functions the module's code
 * calls. The device primitives are the emulator's __oxide_host_* functions
 * (oxemu.c; src/passes lowers the nvvm ops and the nvvm.prim table to calls
 * of them by name), libdevice's math is __nv_* (oxmath.c, over <math.h>).
 * The host program defines them by linking src/runtime/ and exports them
 * to the module by linking with -rdynamic. oxemu.c and oxmath.c include
 * this header, so each definition is checked against its declaration;
 * tests/abi/run.sh checks that every name src/passes emits is declared
 * here and that every declaration has a definition. */
#ifndef OXIDE_HOST_ABI_H
#define OXIDE_HOST_ABI_H

/* the module's side (for hand-written modules, e.g. tests/emu/kernels.c) */
typedef void OxideLaunchFn(void **args);
extern const char __oxide_kernels[];

/* The PTX special registers of the calling thread; outside a launch they
 * describe a grid of one thread. */
unsigned __oxide_host_tid_x(void);
unsigned __oxide_host_tid_y(void);
unsigned __oxide_host_tid_z(void);
unsigned __oxide_host_ntid_x(void);
unsigned __oxide_host_ntid_y(void);
unsigned __oxide_host_ntid_z(void);
unsigned __oxide_host_ctaid_x(void);
unsigned __oxide_host_ctaid_y(void);
unsigned __oxide_host_ctaid_z(void);
unsigned __oxide_host_nctaid_x(void);
unsigned __oxide_host_nctaid_y(void);
unsigned __oxide_host_nctaid_z(void);

/* bar.sync 0, and trap: ends the launch, which fails */
void __oxide_host_barrier(void);
_Noreturn void __oxide_host_trap(void);
/* CUDA's __assertfail (device_assert!): prints CUDA's message and traps;
 * the launch fails with CUDA_ERROR_ASSERT */
_Noreturn void __oxide_host_assertfail(const char *msg, const char *file,
                                       unsigned line, const char *func);

/* CUDA's vprintf (printf!), and the launch's dynamic shared memory */
int __oxide_host_vprintf(const char *fmt, const unsigned char *args);
void *__oxide_host_dynamic_shared(void);

/* Warp operations (a rendezvous of the warp's lanes, like a barrier),
 * barriers with a reduction, fences (no-ops), timers (host nanoseconds):
 * the nvvm.prim ops. Predicates and bool results are 0 / 1. */
unsigned __oxide_host_laneid(void);
unsigned __oxide_host_warpid(void);
unsigned __oxide_host_smid(void);
unsigned __oxide_host_activemask(void);
unsigned __oxide_host_shfl_idx(unsigned mask, unsigned v, unsigned b, unsigned c);
unsigned __oxide_host_shfl_up(unsigned mask, unsigned v, unsigned b, unsigned c);
unsigned __oxide_host_shfl_down(unsigned mask, unsigned v, unsigned b, unsigned c);
unsigned __oxide_host_shfl_bfly(unsigned mask, unsigned v, unsigned b, unsigned c);
unsigned __oxide_host_vote_all(unsigned mask, unsigned pred);
unsigned __oxide_host_vote_any(unsigned mask, unsigned pred);
unsigned __oxide_host_vote_ballot(unsigned mask, unsigned pred);
unsigned __oxide_host_match_any_b32(unsigned mask, unsigned v);
unsigned __oxide_host_match_any_b64(unsigned mask, unsigned long long v);
unsigned __oxide_host_match_all_b32(unsigned mask, unsigned v);
unsigned __oxide_host_match_all_b64(unsigned mask, unsigned long long v);
void __oxide_host_syncwarp(unsigned mask);
unsigned __oxide_host_redux_add(unsigned mask, unsigned v);
unsigned __oxide_host_redux_umin(unsigned mask, unsigned v);
unsigned __oxide_host_redux_umax(unsigned mask, unsigned v);
unsigned __oxide_host_redux_min(unsigned mask, unsigned v);
unsigned __oxide_host_redux_max(unsigned mask, unsigned v);
unsigned __oxide_host_redux_and(unsigned mask, unsigned v);
unsigned __oxide_host_redux_or(unsigned mask, unsigned v);
unsigned __oxide_host_redux_xor(unsigned mask, unsigned v);
unsigned __oxide_host_barrier_popc(unsigned pred);
unsigned __oxide_host_barrier_and(unsigned pred);
unsigned __oxide_host_barrier_or(unsigned pred);
/* barrier.sync / barrier.arrive id, threads (named barriers, counted by
 * warps); a bad id or count, or a barrier that cannot complete, fails the
 * launch */
void __oxide_host_barrier_sync_count(unsigned id, unsigned threads);
void __oxide_host_barrier_arrive_count(unsigned id, unsigned threads);
void __oxide_host_fence_block(void);
void __oxide_host_fence_device(void);
void __oxide_host_fence_system(void);
unsigned __oxide_host_clock(void);
unsigned long long __oxide_host_clock64(void);
unsigned long long __oxide_host_globaltimer(void);
void __oxide_host_nanosleep(unsigned ns);

/* libdevice's math, as oxide_device::math declares it
 * (tools/mir-export/oxide-device/src/math.rs): f32 and f64 */
float __nv_sqrtf(float x);     double __nv_sqrt(double x);
float __nv_rsqrtf(float x);    double __nv_rsqrt(double x);
float __nv_cbrtf(float x);     double __nv_cbrt(double x);
float __nv_expf(float x);      double __nv_exp(double x);
float __nv_exp2f(float x);     double __nv_exp2(double x);
float __nv_exp10f(float x);    double __nv_exp10(double x);
float __nv_expm1f(float x);    double __nv_expm1(double x);
float __nv_logf(float x);      double __nv_log(double x);
float __nv_log2f(float x);     double __nv_log2(double x);
float __nv_log10f(float x);    double __nv_log10(double x);
float __nv_log1pf(float x);    double __nv_log1p(double x);
float __nv_sinf(float x);      double __nv_sin(double x);
float __nv_cosf(float x);      double __nv_cos(double x);
float __nv_tanf(float x);      double __nv_tan(double x);
float __nv_asinf(float x);     double __nv_asin(double x);
float __nv_acosf(float x);     double __nv_acos(double x);
float __nv_atanf(float x);     double __nv_atan(double x);
float __nv_sinhf(float x);     double __nv_sinh(double x);
float __nv_coshf(float x);     double __nv_cosh(double x);
float __nv_tanhf(float x);     double __nv_tanh(double x);
float __nv_floorf(float x);    double __nv_floor(double x);
float __nv_ceilf(float x);     double __nv_ceil(double x);
float __nv_roundf(float x);    double __nv_round(double x);
float __nv_truncf(float x);    double __nv_trunc(double x);
float __nv_fabsf(float x);     double __nv_fabs(double x);
float __nv_erff(float x);      double __nv_erf(double x);
float __nv_erfcf(float x);     double __nv_erfc(double x);
float __nv_atan2f(float x, float y);     double __nv_atan2(double x, double y);
float __nv_powf(float x, float y);       double __nv_pow(double x, double y);
float __nv_hypotf(float x, float y);     double __nv_hypot(double x, double y);
float __nv_fminf(float x, float y);      double __nv_fmin(double x, double y);
float __nv_fmaxf(float x, float y);      double __nv_fmax(double x, double y);
float __nv_copysignf(float x, float y);  double __nv_copysign(double x, double y);
float __nv_powif(float x, int n);        double __nv_powi(double x, int n);
float __nv_fmaf(float a, float b, float c);
double __nv_fma(double a, double b, double c);
/* the approximate (fast_*) functions, f32 only */
float __nv_fast_sinf(float x);
float __nv_fast_cosf(float x);
float __nv_fast_tanf(float x);
float __nv_fast_expf(float x);
float __nv_fast_exp10f(float x);
float __nv_fast_logf(float x);
float __nv_fast_log2f(float x);
float __nv_fast_log10f(float x);
float __nv_fast_powf(float x, float y);
float __nv_fast_fdividef(float x, float y);

#endif
