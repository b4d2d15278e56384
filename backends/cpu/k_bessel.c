/* torch.special's Bessel functions and orthogonal polynomials
 * (k_bessel.h): k_bessel_tmpl.h once in float and once in double. */
#include "backends/cpu/k_bessel.h"

#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <tgmath.h>

#define AIRC_BESSEL_PI 3.14159265358979323846

#define T float
#define FN(name) name##_f32
#define EPS FLT_EPSILON
#define HERMITE_NAN 128
#include "backends/cpu/k_bessel_tmpl.h"
#undef T
#undef FN
#undef EPS
#undef HERMITE_NAN

#define T double
#define FN(name) name##_f64
#define EPS DBL_EPSILON
#define HERMITE_NAN 512
#include "backends/cpu/k_bessel_tmpl.h"
#undef T
#undef FN
#undef EPS
#undef HERMITE_NAN
