#define _GNU_SOURCE /* roundeven, feenableexcept */
#include "corpus.h"
#include <fenv.h>
#include <float.h>
#include <math.h>
/* FPCR rounding modes and FPSR cumulative flags as a program sees them through <fenv.h>: every rounding mode
   for + - * / sqrt fma, conversions (FCVT*, SCVTF/UCVTF, FCVT between precisions), FRINT*, compares, and each
   IEEE flag raised, tested, cleared and set. */
static volatile double d_one = 1.0, d_three = 3.0, d_ten = 10.0, d_tiny = 0x1p-1070, d_max = DBL_MAX, d_min = DBL_MIN;
static volatile double d_zero = 0.0, d_neg = -2.5, d_half = 0.5, d_third = 1.0 / 3.0, d_big = 1e30, d_exact = 42.0;
static volatile float f_one = 1.0f, f_three = 3.0f, f_ten = 10.0f, f_max = FLT_MAX, f_min = FLT_MIN;
static volatile int64_t i_odd = 9007199254740993ll, i_neg = -123456789012345679ll;
static volatile uint64_t u_big = 18446744073709551557ull;
static volatile int32_t i_small = 16777217;

static const struct { int mode; const char* name; } modes[] = {
    {FE_TONEAREST, "nearest"}, {FE_UPWARD, "upward"}, {FE_DOWNWARD, "downward"}, {FE_TOWARDZERO, "toward-zero"}};

static void flags(void) {
  const int raised = fetestexcept(FE_ALL_EXCEPT);
  printf("%s%s%s%s%s\n", raised & FE_INVALID ? " invalid" : "", raised & FE_DIVBYZERO ? " divbyzero" : "",
         raised & FE_OVERFLOW ? " overflow" : "", raised & FE_UNDERFLOW ? " underflow" : "", raised & FE_INEXACT ? " inexact" : "");
  feclearexcept(FE_ALL_EXCEPT);
}
#define D(what, expr) do { feclearexcept(FE_ALL_EXCEPT); volatile double r_ = (expr); printf("  %-12s %-24a", what, r_); flags(); } while (0)
#define F(what, expr) do { feclearexcept(FE_ALL_EXCEPT); volatile float r_ = (expr); printf("  %-12s %-24a", what, (double)r_); flags(); } while (0)
#define I(what, expr) do { feclearexcept(FE_ALL_EXCEPT); volatile long long r_ = (long long)(expr); printf("  %-12s %-24lld", what, r_); flags(); } while (0)
#define U(what, expr) do { feclearexcept(FE_ALL_EXCEPT); volatile unsigned long long r_ = (expr); printf("  %-12s %-24llu", what, r_); flags(); } while (0)

static void arithmetic(void) {
  D("1/3", d_one / d_three); D("-1/3", -d_one / d_three); D("1/3+1/3e16", d_third + d_third * 1e-16); D("1-1/3e-17", d_one - d_third * 1e-17);
  D("0.1*3", d_third * 0.3); D("sqrt 10", sqrt(d_ten)); D("fma", fma(d_third, d_three, -d_one)); D("fma neg", fma(-d_third, d_ten, d_half));
  D("exact", d_exact * d_half); D("max*10", d_max * d_ten); D("-max*10", -d_max * d_ten); D("min*min", d_min * d_min);
  D("tiny/3", d_tiny / d_three); D("min/2", d_min / 2.0); D("1/0", d_one / d_zero); D("-1/0", -d_one / d_zero); D("0/0", d_zero / d_zero);
  D("sqrt -2.5", sqrt(d_neg)); D("inf-inf", (d_one / d_zero) - (d_one / d_zero)); D("0*inf", d_zero * (d_one / d_zero));
  F("f 1/3", f_one / f_three); F("f -1/3", -f_one / f_three); F("f sqrt 10", sqrtf(f_ten)); F("f fma", fmaf(f_one / f_three, f_three, -f_one));
  F("f max*10", f_max * f_ten); F("f min*min", f_min * f_min); F("f 1/0", f_one / (float)d_zero);
}

static void conversions(void) {
  F("d->f 1/3", (float)d_third); F("d->f max", (float)d_max); F("d->f min", (float)d_min); F("d->f 1e30", (float)d_big);
  D("i64->d", (double)i_odd); D("i64->d neg", (double)i_neg); D("u64->d", (double)u_big); F("u64->f", (float)u_big);
  F("i32->f", (float)i_small); F("i64->f", (float)i_odd); D("i32->d", (double)i_small);
  I("(int)-2.5", (int)d_neg); I("(long)1/3", (long)d_third); I("(int)1e30", (int)d_big); I("(long)1e30", (long)d_big);
  I("(int)nan", (int)(d_zero / d_zero)); I("(int)42", (int)d_exact); U("(u32)-2.5", (unsigned)d_neg); U("(u64)1e30", (unsigned long long)d_big);
  U("(u64)0.5", (unsigned long long)d_half); I("(int)f 1e30", (int)(float)d_big);
  I("lrint 1/3", lrint(d_third * 7.0)); I("lrint -2.5", lrint(d_neg)); I("llrint 2.5", llrint(-d_neg)); I("lround -2.5", lround(d_neg));
  I("lrint 1e30", lrint(d_big)); I("lrintf", lrintf((float)d_neg * 3.3f));
}

static void rounding_functions(void) {
  D("rint 2.5", rint(-d_neg)); D("rint -2.5", rint(d_neg)); D("rint 1/3", rint(d_third)); D("rint 42", rint(d_exact));
  D("nearbyint", nearbyint(d_neg)); D("nearbyint+", nearbyint(d_third * 5.0)); D("floor -2.5", floor(d_neg)); D("ceil -2.5", ceil(d_neg));
  D("trunc 1/3", trunc(d_third * 4.0)); D("round -2.5", round(d_neg)); D("roundeven", roundeven(d_neg)); F("rintf 2.5", rintf((float)-d_neg));
  F("nearbyintf", nearbyintf((float)d_neg)); F("floorf", floorf((float)d_neg)); F("roundf", roundf((float)d_neg));
}

static void compares(void) {
  const double nan = d_zero / d_zero;
  feclearexcept(FE_ALL_EXCEPT);
  volatile int r = nan < d_one; printf("  nan < 1 = %d ", r); flags();  /* FCMPE: invalid for any NaN */
  r = nan == d_one; printf("  nan == 1 = %d ", r); flags();              /* FCMP: quiet */
  r = isless(nan, d_one); printf("  isless = %d ", r); flags();
  r = d_one < d_three; printf("  1 < 3 = %d ", r); flags();
  r = (float)nan >= f_one; printf("  f nan >= 1 = %d ", r); flags();
}

static void environment(void) {
  feclearexcept(FE_ALL_EXCEPT);
  printf("  clear: %d\n", fetestexcept(FE_ALL_EXCEPT));
  feraiseexcept(FE_OVERFLOW | FE_INEXACT);
  printf("  raise overflow|inexact: overflow %d inexact %d underflow %d\n", !!fetestexcept(FE_OVERFLOW), !!fetestexcept(FE_INEXACT),
         !!fetestexcept(FE_UNDERFLOW));
  feclearexcept(FE_OVERFLOW);
  printf("  clear overflow: overflow %d inexact %d\n", !!fetestexcept(FE_OVERFLOW), !!fetestexcept(FE_INEXACT));
  fexcept_t saved;
  fegetexceptflag(&saved, FE_ALL_EXCEPT);
  feclearexcept(FE_ALL_EXCEPT);
  volatile double x = d_one / d_zero; (void)x;
  fesetexceptflag(&saved, FE_INEXACT);
  printf("  restored: divbyzero %d inexact %d\n", !!fetestexcept(FE_DIVBYZERO), !!fetestexcept(FE_INEXACT));
  fenv_t env;
  fesetround(FE_DOWNWARD);
  feholdexcept(&env);
  x = d_one / d_three;
  printf("  held: %a round %d inexact %d\n", x, fegetround() == FE_DOWNWARD, !!fetestexcept(FE_INEXACT));
  feupdateenv(&env);
  printf("  updated: round %d inexact %d\n", fegetround() == FE_DOWNWARD, !!fetestexcept(FE_INEXACT));
  fesetenv(FE_DFL_ENV);
  printf("  default: round %d flags %d\n", fegetround() == FE_TONEAREST, fetestexcept(FE_ALL_EXCEPT));
  printf("  feenableexcept: %d\n", feenableexcept(FE_DIVBYZERO));
  printf("  fesetround(-1): %d\n", fesetround(-1));
}

PROGRAM(fp_environment) {
  UNUSED_ARGS;
  printf("start: round %d flags %d\n", fegetround() == FE_TONEAREST, fetestexcept(FE_ALL_EXCEPT));
  for (size_t m = 0; m < sizeof modes / sizeof modes[0]; ++m) {
    if (fesetround(modes[m].mode) != 0) { printf("fesetround %s failed\n", modes[m].name); return 1; }
    printf("%s (fegetround agrees: %d)\n", modes[m].name, fegetround() == modes[m].mode);
    arithmetic();
    conversions();
    rounding_functions();
    compares();
    /* printf formats under the current mode: glibc rounds decimal output by it. */
    printf("  printf: %.3f %.3f %.0f %.2e\n", (double)d_third, -(double)d_third, (double)-d_neg, (double)d_third * 1e10);
  }
  fesetround(FE_TONEAREST);
  environment();
  return 0;
}
