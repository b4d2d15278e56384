/* torch.special's Bessel functions and orthogonal polynomials in one
 * floating type, included by k_bessel.c once per type: T the type, FN(name)
 * the function's name for it, EPS its machine epsilon. Written over
 * <tgmath.h>, so that f32 computes in float as torch 1.13's CPU kernels do
 * (their rounding and overflow, to inf and then NaN, are the results).
 * The Bessel functions are Cephes' rational and Chebyshev approximations
 * (the coefficients are Cephes' published ones), evaluated as torch's
 * kernels evaluate them. No global state: thread-safe. */

/* c[0] z^(len-1) + ... + c[len-1], Horner's rule from 0 as torch's loops */
static T FN(horner)(T z, const T *c, int len)
{
    T r = 0;
    for (int i = 0; i < len; i++)
        r = r * z + c[i];
    return r;
}

/* the sum of a Chebyshev series at y (Cephes' chbevl: Clenshaw's rule) */
static T FN(chbevl)(T y, const T *c, int len)
{
    T b0 = c[0], b1 = 0, b2 = 0;
    for (int i = 1; i < len; i++) {
        b2 = b1;
        b1 = b0;
        b0 = y * b1 - b2 + c[i];
    }
    return (T)0.5 * (b0 - b2);
}

/* Ai(x): NaN at ±inf, 0 past 103.892; below -2.09 the asymptotic form
 * with sin / cos, from 2.09 the exponentially small rational one, and
 * between the Maclaurin series of f and g until a term is below epsilon. */
T FN(airc_airy_ai)(T x)
{
    static const T an[] = {3.46538101525629032477e-01, 1.20075952739645805542e+01,
                           7.62796053615234516538e+01, 1.68089224934630576269e+02,
                           1.59756391350164413639e+02, 7.05360906840444183113e+01,
                           1.40264691163389668864e+01, 9.99999999999999995305e-01};
    static const T ad[] = {5.67594532638770212846e-01, 1.47562562584847203173e+01,
                           8.45138970141474626562e+01, 1.77318088145400459522e+02,
                           1.64234692871529701831e+02, 7.14778400825575695274e+01,
                           1.40959135607834029598e+01, 1.00000000000000000470e+00};
    static const T afn[] = {
        -1.31696323418331795333e-01, -6.26456544431912369773e-01, -6.93158036036933542233e-01,
        -2.79779981545119124951e-01, -4.91900132609500318020e-02, -4.06265923594885404393e-03,
        -1.59276496239262096340e-04, -2.77649108155232920844e-06, -1.67787698489114633780e-08};
    static const T afd[] = {
        1.33560420706553243746e+01, 3.26825032795224613948e+01, 2.67367040941499554804e+01,
        9.18707402907259625840e+00, 1.47529146771666414581e+00, 1.15687173795188044134e-01,
        4.40291641615211203805e-03, 7.54720348287414296618e-05, 4.51850092970580378464e-07};
    static const T agn[] = {
        1.97339932091685679179e-02, 3.91103029615688277255e-01, 1.06579897599595591108e+00,
        9.39169229816650230044e-01, 3.51465656105547619242e-01, 6.33888919628925490927e-02,
        5.85804113048388458567e-03, 2.82851600836737019778e-04, 6.98793669997260967291e-06,
        8.11789239554389293311e-08, 3.41551784765923618484e-10};
    static const T agd[] = {9.30892908077441974853e+00, 1.98352928718312140417e+01,
                            1.55646628932864612953e+01, 5.47686069422975497931e+00,
                            9.54293611618961883998e-01, 8.64580826352392193095e-02,
                            4.12656523824222607191e-03, 1.01259085116509135510e-04,
                            1.17166733214413521882e-06, 4.91834570062930015649e-09};
    const T inv_sqrt_pi = (T)5.64189583547756286948e-01;
    if (isinf(x))
        return NAN;
    if (x > (T)103.892)
        return 0;
    if (x < (T)-2.09) {
        T zeta = (T)-2.0 * x * sqrt(-x) / (T)3.0, z = (T)1.0 / zeta, zz = z * z;
        T f = (T)1.0 + zz * FN(horner)(zz, afn, 9) / FN(horner)(zz, afd, 9);
        T g = z * FN(horner)(zz, agn, 11) / FN(horner)(zz, agd, 10);
        T t = zeta + (T)0.25 * (T)AIRC_BESSEL_PI;
        return inv_sqrt_pi / sqrt(sqrt(-x)) * (sin(t) * f - cos(t) * g);
    }
    if (x >= (T)2.09) {
        T zeta = (T)2.0 * x * sqrt(x) / (T)3.0, iz = (T)1.0 / zeta;
        return inv_sqrt_pi * (FN(horner)(iz, an, 8) / FN(horner)(iz, ad, 8)) /
               ((T)2.0 * sqrt(sqrt(x)) * exp(zeta));
    }
    T f = 1, g = x, k = 1, m = 1, n = x, t = 1, z = x * x * x;
    while (t > EPS) {
        m *= z;
        k += 1;
        m /= k;
        n *= z;
        k += 1;
        n /= k;
        m /= k;
        f += m;
        k += 1;
        n /= k;
        g += n;
        t = fabs(m / f);
    }
    return (T)0.355028053887817239260 * f - (T)0.258819403792806798405 * g;
}

/* J0 / Y0 and J1 / Y1 share their asymptotic forms past 5: the modulus
 * P / Q rational functions of 25 / x^2 and the phase x - pi/4 (x - 3pi/4) */
static const T FN(j0_pp)[] = {7.96936729297347051624e-04, 8.28352392107440799803e-02,
                              1.23953371646414299388e+00, 5.44725003058768775090e+00,
                              8.74716500199817011941e+00, 5.30324038235394892183e+00,
                              9.99999999999999997821e-01};
static const T FN(j0_pq)[] = {9.24408810558863637013e-04, 8.56288474354474431428e-02,
                              1.25352743901058953537e+00, 5.47097740330417105182e+00,
                              8.76190883237069594232e+00, 5.30605288235394617618e+00,
                              1.00000000000000000218e+00};
static const T FN(j0_qp)[] = {-1.13663838898469149931e-02, -1.28252718670509318512e+00,
                              -1.95539544257735972385e+01, -9.32060152123768231369e+01,
                              -1.77681167980488050595e+02, -1.47077505154951170175e+02,
                              -5.14105326766599330220e+01, -6.05014350600728481186e+00};
static const T FN(j0_qq)[] = {6.43178256118178023184e+01, 8.56430025976980587198e+02,
                              3.88240183605401609683e+03, 7.24046774195652478189e+03,
                              5.93072701187316984827e+03, 2.06209331660327847417e+03,
                              2.42005740240291393179e+02};
static const T FN(j1_pp)[] = {7.62125616208173112003e-04, 7.31397056940917570436e-02,
                              1.12719608129684925192e+00, 5.11207951146807644818e+00,
                              8.42404590141772420927e+00, 5.21451598682361504063e+00,
                              1.00000000000000000254e+00};
static const T FN(j1_pq)[] = {5.71323128072548699714e-04, 6.88455908754495404082e-02,
                              1.10514232634061696926e+00, 5.07386386128601488557e+00,
                              8.39985554327604159757e+00, 5.20982848682361821619e+00,
                              9.99999999999999997461e-01};
static const T FN(j1_qp)[] = {5.10862594750176621635e-02, 4.98213872951233449420e+00,
                              7.58238284132545283818e+01, 3.66779609360150777800e+02,
                              7.10856304998926107277e+02, 5.97489612400613639965e+02,
                              2.11688757100572135698e+02, 2.52070205858023719784e+01};
static const T FN(j1_qq)[] = {7.42373277035675149943e+01, 1.05644886038262816351e+03,
                              4.98641058337653607651e+03, 9.56231892404756170795e+03,
                              7.99704160447350683650e+03, 2.82619278517639096600e+03,
                              3.36093607810698293419e+02};

/* the asymptotic form past 5: sqrt(2 / (pi x)) (P cos(x - phase) - 5 / x Q
 * sin(...)) for J, (P sin + 5 / x Q cos) for Y; order 1 takes w as
 * (5 / x)(5 / x), order 0 as 25 / (x x), torch's roundings */
static T FN(bessel_far)(T x, int order, bool y)
{
    T w = order ? (T)5.0 / x * ((T)5.0 / x) : (T)25.0 / (x * x);
    const T *pp = order ? FN(j1_pp) : FN(j0_pp), *pq = order ? FN(j1_pq) : FN(j0_pq);
    const T *qp = order ? FN(j1_qp) : FN(j0_qp), *qq = order ? FN(j1_qq) : FN(j0_qq);
    T p = FN(horner)(w, pp, 7) / FN(horner)(w, pq, 7);
    T q = FN(horner)(w, qp, 8) / FN(horner)(w, qq, 7);
    T ph = x - (order ? (T)2.356194490192344928846982537459627163
                      : (T)0.785398163397448309615660845819875721);
    T v = y ? p * sin(ph) + (T)5.0 / x * q * cos(ph) : p * cos(ph) - (T)5.0 / x * q * sin(ph);
    return v * (T)0.797884560802865355879892119868763737 / sqrt(x);
}

T FN(airc_bessel_j0)(T x)
{
    static const T rp[] = {-4.79443220978201773821e+09, 1.95617491946556577543e+12,
                           -2.49248344360967716204e+14, 9.70862251047306323952e+15};
    static const T rq[] = {4.99563147152651017219e+02, 1.73785401676374683123e+05,
                           4.84409658339962045305e+07, 1.11855537045356834862e+10,
                           2.11277520115489217587e+12, 3.10518229857422583814e+14,
                           3.18121955943204943306e+16, 1.71086294081043136091e+18};
    if (x < 0)
        x = -x;
    if (x > (T)5.0 || x != x)
        return FN(bessel_far)(x, 0, false);
    if (x < (T)0.00001)
        return (T)1.0 - x * x / (T)4.0;
    T z = x * x;
    return (z - (T)5.78318596294678452118e+00) * (z - (T)3.04712623436620863991e+01) *
           FN(horner)(z, rp, 4) / FN(horner)(z, rq, 8);
}

T FN(airc_bessel_j1)(T x)
{
    static const T rp[] = {-8.99971225705559398224e+08, 4.52228297998194034323e+11,
                           -7.27494245221818276015e+13, 3.68295732863852883286e+15};
    static const T rq[] = {6.20836478118054335476e+02, 2.56987256757748830383e+05,
                           8.35146791431949253037e+07, 2.21511595479792499675e+10,
                           4.74914122079991414898e+12, 7.84369607876235854894e+14,
                           8.95222336184627338078e+16, 5.32278620332680085395e+18};
    if (x < 0)
        return -FN(airc_bessel_j1)(-x);
    if (x > (T)5.0 || x != x)
        return FN(bessel_far)(x, 1, false);
    T z = x * x;
    return FN(horner)(z, rp, 4) / FN(horner)(z, rq, 8) * x * (z - (T)1.46819706421238932572e+01) *
           (z - (T)4.92184563216946036703e+01);
}

/* Y0 / Y1: -inf at 0, NaN below (x <= 5 holds for -inf) */
T FN(airc_bessel_y0)(T x)
{
    static const T yp[] = {1.55924367855235737965e+04, -1.46639295903971606143e+07,
                           5.43526477051876500413e+09, -9.82136065717911466409e+11,
                           8.75906394395366999549e+13, -3.46628303384729719441e+15,
                           4.42733268572569800351e+16, -1.84950800436986690637e+16};
    static const T yq[] = {1.04128353664259848412e+03, 6.26107330137134956842e+05,
                           2.68919633393814121987e+08, 8.64002487103935000337e+10,
                           2.02979612750105546709e+13, 3.17157752842975028269e+15,
                           2.50596256172653059228e+17};
    if (!(x <= (T)5.0))
        return FN(bessel_far)(x, 0, true);
    if (x == 0)
        return -INFINITY;
    if (x < 0)
        return NAN;
    T z = x * x;
    return FN(horner)(z, yp, 8) / FN(horner)(z, yq, 7) +
           (T)0.636619772367581343075535053490057448 * log(x) * FN(airc_bessel_j0)(x);
}

T FN(airc_bessel_y1)(T x)
{
    static const T yp[] = {1.26320474790178026440e+09, -6.47355876379160291031e+11,
                           1.14509511541823727583e+14, -8.12770255501325109621e+15,
                           2.02439475713594898196e+17, -7.78877196265950026825e+17};
    static const T yq[] = {5.94301592346128195359e+02, 2.35564092943068577943e+05,
                           7.34811944459721705660e+07, 1.87601316108706159478e+10,
                           3.88231277496238566008e+12, 6.20557727146953693363e+14,
                           6.87141087355300489866e+16, 3.97270608116560655612e+18};
    if (!(x <= (T)5.0))
        return FN(bessel_far)(x, 1, true);
    if (x == 0)
        return -INFINITY;
    if (x < 0)
        return NAN;
    T z = x * x;
    return x * (FN(horner)(z, yp, 6) / FN(horner)(z, yq, 8)) +
           (T)0.636619772367581343075535053490057448 *
               (FN(airc_bessel_j1)(x) * log(x) - (T)1.0 / x);
}

/* I0 / I1 Chebyshev series: exp(-|x|) I(x) (over |x| for I1) on [0, 8] in
 * |x| / 2 - 2, sqrt(x) exp(-x) I(x) past 8 in 32 / x - 2 */
static const T FN(i0_a)[] = {
    -4.41534164647933937950e-18, 3.33079451882223809783e-17,  -2.43127984654795469359e-16,
    1.71539128555513303061e-15,  -1.16853328779934516808e-14, 7.67618549860493561688e-14,
    -4.85644678311192946090e-13, 2.95505266312963983461e-12,  -1.72682629144155570723e-11,
    9.67580903537323691224e-11,  -5.18979560163526290666e-10, 2.65982372468238665035e-09,
    -1.30002500998624804212e-08, 6.04699502254191894932e-08,  -2.67079385394061173391e-07,
    1.11738753912010371815e-06,  -4.41673835845875056359e-06, 1.64484480707288970893e-05,
    -5.75419501008210370398e-05, 1.88502885095841655729e-04,  -5.76375574538582365885e-04,
    1.63947561694133579842e-03,  -4.32430999505057594430e-03, 1.05464603945949983183e-02,
    -2.37374148058994688156e-02, 4.93052842396707084878e-02,  -9.49010970480476444210e-02,
    1.71620901522208775349e-01,  -3.04682672343198398683e-01, 6.76795274409476084995e-01};
static const T FN(i0_b)[] = {
    -7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
    3.46122286769746109310e-17,  -2.82762398051658348494e-16, -3.42548561967721913462e-16,
    1.77256013305652638360e-15,  3.81168066935262242075e-15,  -9.55484669882830764870e-15,
    -4.15056934728722208663e-14, 1.54008621752140982691e-14,  3.85277838274214270114e-13,
    7.18012445138366623367e-13,  -1.79417853150680611778e-12, -1.32158118404477131188e-11,
    -3.14991652796324136454e-11, 1.18891471078464383424e-11,  4.94060238822496958910e-10,
    3.39623202570838634515e-09,  2.26666899049817806459e-08,  2.04891858946906374183e-07,
    2.89137052083475648297e-06,  6.88975834691682398426e-05,  3.36911647825569408990e-03,
    8.04490411014108831608e-01};
static const T FN(i1_a)[] = {
    2.77791411276104639959e-18,  -2.11142121435816608115e-17, 1.55363195773620046921e-16,
    -1.10559694773538630805e-15, 7.60068429473540693410e-15,  -5.04218550472791168711e-14,
    3.22379336594557470981e-13,  -1.98397439776494371520e-12, 1.17361862988909016308e-11,
    -6.66348972350202774223e-11, 3.62559028155211703701e-10,  -1.88724975172282928790e-09,
    9.38153738649577178388e-09,  -4.44505912879632808065e-08, 2.00329475355213526229e-07,
    -8.56872026469545474066e-07, 3.47025130813767847674e-06,  -1.32731636560394358279e-05,
    4.78156510755005422638e-05,  -1.61760815825896745588e-04, 5.12285956168575772895e-04,
    -1.51357245063125314899e-03, 4.15642294431288815669e-03,  -1.05640848946261981558e-02,
    2.47264490306265168283e-02,  -5.29459812080949914269e-02, 1.02643658689847095384e-01,
    -1.76416518357834055153e-01, 2.52587186443633654823e-01};
static const T FN(i1_b)[] = {
    7.51729631084210481353e-18,  4.41434832307170791151e-18,  -4.65030536848935832153e-17,
    -3.20952592199342395980e-17, 2.96262899764595013876e-16,  3.30820231092092828324e-16,
    -1.88035477551078244854e-15, -3.81440307243700780478e-15, 1.04202769841288027642e-14,
    4.27244001671195135429e-14,  -2.10154184277266431302e-14, -4.08355111109219731823e-13,
    -7.19855177624590851209e-13, 2.03562854414708950722e-12,  1.41258074366137813316e-11,
    3.25260358301548823856e-11,  -1.89749581235054123450e-11, -5.58974346219658380687e-10,
    -3.83538038596423702205e-09, -2.63146884688951950684e-08, -2.51223623787020892529e-07,
    -3.88256480887769039346e-06, -1.10588938762623716291e-04, -9.76109749136146840777e-03,
    7.78576235018280120474e-01};

T FN(airc_modified_bessel_i0)(T x)
{
    T ax = fabs(x);
    if (ax <= (T)8.0)
        return exp(ax) * FN(chbevl)(ax / (T)2.0 - (T)2.0, FN(i0_a), 30);
    return exp(ax) * FN(chbevl)((T)32.0 / ax - (T)2.0, FN(i0_b), 25) / sqrt(ax);
}

T FN(airc_modified_bessel_i1)(T x)
{
    T ax = fabs(x), v;
    if (ax <= (T)8.0)
        v = FN(chbevl)(ax / (T)2.0 - (T)2.0, FN(i1_a), 29) * ax * exp(ax);
    else
        v = exp(ax) * FN(chbevl)((T)32.0 / ax - (T)2.0, FN(i1_b), 25) / sqrt(ax);
    return x < 0 ? -v : v;
}

/* K0 / K1 Chebyshev series: on (0, 2] in x^2 - 2 with the log term of I,
 * past 2 sqrt(x) exp(x) K(x) in 8 / x - 2. inf at 0, NaN below. The
 * scaled forms multiply by exp(x) on (0, 2] and leave out exp(-x) past. */
static const T FN(k0_a)[] = {1.37446543561352307156e-16, 4.25981614279661018399e-14,
                             1.03496952576338420167e-11, 1.90451637722020886025e-09,
                             2.53479107902614945675e-07, 2.28621210311945178607e-05,
                             1.26461541144692592338e-03, 3.59799365153615016266e-02,
                             3.44289899924628486886e-01, -5.35327393233902768720e-01};
static const T FN(k0_b)[] = {
    5.30043377268626276149e-18,  -1.64758043015242134646e-17, 5.21039150503902756861e-17,
    -1.67823109680541210385e-16, 5.51205597852431940784e-16,  -1.84859337734377901440e-15,
    6.34007647740507060557e-15,  -2.22751332699166985548e-14, 8.03289077536357521100e-14,
    -2.98009692317273043925e-13, 1.14034058820847496303e-12,  -4.51459788337394416547e-12,
    1.85594911495471785253e-11,  -7.95748924447710747776e-11, 3.57739728140030116597e-10,
    -1.69753450938905987466e-09, 8.57403401741422608519e-09,  -4.66048989768794782956e-08,
    2.76681363944501510342e-07,  -1.83175552271911948767e-06, 1.39498137188764993662e-05,
    -1.28495495816278026384e-04, 1.56988388573005337491e-03,  -3.14481013119645005427e-02,
    2.44030308206595545468e+00};
static const T FN(k1_a)[] = {
    -7.02386347938628759343e-18, -2.42744985051936593393e-15, -6.66690169419932900609e-13,
    -1.41148839263352776110e-10, -2.21338763073472585583e-08, -2.43340614156596823496e-06,
    -1.73028895751305206302e-04, -6.97572385963986435018e-03, -1.22611180822657148235e-01,
    -3.53155960776544875667e-01, 1.52530022733894777053e+00};
static const T FN(k1_b)[] = {
    -5.75674448366501715755e-18, 1.79405087314755922667e-17,  -5.68946255844285935196e-17,
    1.83809354436663880070e-16,  -6.05704724837331885336e-16, 2.03870316562433424052e-15,
    -7.01983709041831346144e-15, 2.47715442448130437068e-14,  -8.97670518232499435011e-14,
    3.34841966607842919884e-13,  -1.28917396095102890680e-12, 5.13963967348173025100e-12,
    -2.12996783842756842877e-11, 9.21831518760500529508e-11,  -4.19035475934189648750e-10,
    2.01504975519703286596e-09,  -1.03457624656780970260e-08, 5.74108412545004946722e-08,
    -3.50196060308781257119e-07, 2.40648494783721712015e-06,  -1.93619797416608296024e-05,
    1.95215518471351631108e-04,  -2.85781685962277938680e-03, 1.03923736576817238437e-01,
    2.72062619048444266945e+00};

/* K0 or K1 (order), scaled by exp(x) or not */
static T FN(bessel_k)(T x, int order, bool scaled)
{
    if (x == 0)
        return INFINITY;
    if (x < 0)
        return NAN;
    if (x <= (T)2.0) {
        T y = x * x - (T)2.0, v;
        if (order)
            v = log((T)0.5 * x) * FN(airc_modified_bessel_i1)(x) + FN(chbevl)(y, FN(k1_a), 11) / x;
        else /* torch's log(0.5 * x) has a double 0.5: the term in double */
            v = (T)((double)FN(chbevl)(y, FN(k0_a), 10) -
                    log(0.5 * (double)x) * (double)FN(airc_modified_bessel_i0)(x));
        return scaled ? v * exp(x) : v;
    }
    T s = FN(chbevl)((T)8.0 / x - (T)2.0, order ? FN(k1_b) : FN(k0_b), 25);
    return scaled ? s / sqrt(x) : exp(-x) * s / sqrt(x);
}

T FN(airc_modified_bessel_k0)(T x)
{
    return FN(bessel_k)(x, 0, false);
}

T FN(airc_modified_bessel_k1)(T x)
{
    return FN(bessel_k)(x, 1, false);
}

/* the scaled K0 computes its log term in T (torch's kernel does) */
T FN(airc_scaled_modified_bessel_k0)(T x)
{
    if (x > 0 && x <= (T)2.0)
        return (FN(chbevl)(x * x - (T)2.0, FN(k0_a), 10) -
                log((T)0.5 * x) * FN(airc_modified_bessel_i0)(x)) *
               exp(x);
    return FN(bessel_k)(x, 0, true);
}

T FN(airc_scaled_modified_bessel_k1)(T x)
{
    return FN(bessel_k)(x, 1, true);
}

/* sin(x) / x: 0 at ±inf, its Taylor polynomial below 1/2 */
T FN(airc_spherical_bessel_j0)(T x)
{
    if (isinf(x))
        return 0;
    if (fabs(x) < (T)0.5) {
        T z = x * x;
        return (T)1.0 +
               z * ((T)-1.0 / (T)6.0 +
                    z * ((T)1.0 / (T)120.0 +
                         z * ((T)-1.0 / (T)5040.0 +
                              z * ((T)1.0 / (T)362880.0 + z * ((T)-1.0 / (T)39916800.0 +
                                                               z * ((T)1.0 / (T)6227020800.0))))));
    }
    return sin(x) / x;
}

/* ------------------------------------------------------------ polynomials
 * The degree is n converted to int64 as torch's static_cast does on x86
 * (NaN, ±inf and values past int64 are INT64_MIN: a negative degree, 0).
 * Below 0 the value is 0. The three-term recurrences stop at a NaN, which
 * no later step changes (the result is the NaN). */
static int64_t FN(degree)(T n)
{
    return n != n || !(fabs(n) < (T)9.2233720368547758e18) ? INT64_MIN : (int64_t)n;
}

/* Whether step k of a recurrence passes AIRC_POLY_MAX_STEPS: then *st is
 * set (the kernel fails; torch would run that many steps per element) */
static bool FN(too_long)(int64_t k, airc_status *st)
{
    if (k <= AIRC_POLY_MAX_STEPS)
        return false;
    *st = AIRC_E_UNSUPPORTED;
    return true;
}

/* p_{k+1} = (a x + b) p_k - p_{k-1}: the Chebyshev recurrences' tail from
 * p0 = 1, p1 = q (t the doubled argument), for n >= 2 */
static T FN(cheb_tail)(T t, T q, int64_t n, airc_status *st)
{
    T p = 1, r = q;
    for (int64_t k = 2; k <= n && !isnan(q); k++) {
        if (FN(too_long)(k, st))
            return NAN;
        r = t * q - p;
        p = q;
        q = r;
    }
    return r;
}

T FN(airc_chebyshev_t)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    if (fabs(x) == 1)
        return x > 0 || n % 2 == 0 ? 1 : -1;
    if (n > 6 && fabs(x) < 1)
        return cos((T)n * acos(x));
    if (n == 0)
        return 1;
    if (n == 1)
        return x;
    return FN(cheb_tail)(x + x, x, n, st);
}

T FN(airc_chebyshev_u)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    if (fabs(x) == 1)
        return x > 0 || n % 2 == 0 ? (T)(n + 1) : -(T)(n + 1);
    if (n > 8 && fabs(x) < 1) {
        T a = acos(x);
        if (sin(a) != 0)
            return sin((T)(n + 1) * a) / sin(a);
        return (T)(n + 1) * cos((T)(n + 1) * a) / x;
    }
    if (n == 0)
        return 1;
    if (n == 1)
        return x + x;
    return FN(cheb_tail)(x + x, x + x, n, st);
}

T FN(airc_chebyshev_v)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    T odd = n % 2 == 0 ? (T)(n + n + 1) : -(T)(n + n + 1);
    if (fabs(x) == 1)
        return x > 0 ? 1 : odd;
    if (n > 8 && fabs(x) < 1) {
        T a = acos(x);
        if (sin(a / (T)2.0) != 1)
            return cos(((T)n + (T)0.5) * a) / cos(a / (T)2.0);
        return odd;
    }
    if (n == 0)
        return 1;
    if (n == 1)
        return x + x - 1;
    return FN(cheb_tail)(x + x, x + x - 1, n, st);
}

T FN(airc_chebyshev_w)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    T sign = n % 2 == 0 ? 1 : -1;
    if (fabs(x) == 1)
        return x > 0 ? (T)(n + n + 1) : sign;
    if (n > 8 && fabs(x) < 1) {
        T a = acos(x);
        if (cos(a / (T)2.0) != 1)
            return sin(((T)n + (T)0.5) * a) / sin(a / (T)2.0);
        return x > 0 ? (T)(n + n + 1) : sign;
    }
    if (n == 0)
        return 1;
    if (n == 1)
        return x + x + 1;
    return FN(cheb_tail)(x + x, x + x + 1, n, st);
}

/* The shifted polynomials are the plain ones at y = 2x - 1, with their
 * own edges: x == 1 and x == 0 (y = ±1) first, the closed forms from n > 6
 * (n > 4 for W), the recurrence's factor y + y */
T FN(airc_shifted_chebyshev_t)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    if (x == 1)
        return 1;
    if (x == 0)
        return n % 2 == 0 ? 1 : -1;
    T y = x + x - 1;
    if (n > 6 && fabs(y) < 1)
        return cos((T)n * acos(y));
    if (n == 0)
        return 1;
    if (n == 1)
        return y;
    return FN(cheb_tail)(y + y, y, n, st);
}

T FN(airc_shifted_chebyshev_u)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    if (x == 1)
        return (T)(n + 1);
    if (x == 0)
        return n % 2 == 0 ? (T)(n + 1) : -(T)(n + 1);
    T y = x + x - 1;
    if (n > 6 && fabs(y) < 1) {
        T a = acos(y);
        if (sin(a) != 0)
            return sin((T)(n + 1) * a) / sin(a);
        return (T)(n + 1) * cos((T)(n + 1) * a) / y;
    }
    if (n == 0)
        return 1;
    if (n == 1)
        return y + y;
    return FN(cheb_tail)(y + y, y + y, n, st);
}

T FN(airc_shifted_chebyshev_v)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    T odd = n % 2 == 0 ? (T)(n + n + 1) : -(T)(n + n + 1);
    if (x == 1)
        return 1;
    if (x == 0)
        return odd;
    T y = x + x - 1;
    if (n > 6 && fabs(y) < 1) {
        T a = acos(y);
        if (sin(a / (T)2.0) != 1)
            return cos(((T)n + (T)0.5) * a) / cos(a / (T)2.0);
        return odd;
    }
    if (n == 0)
        return 1;
    if (n == 1)
        return y + y - 1;
    return FN(cheb_tail)(y + y, y + y - 1, n, st);
}

T FN(airc_shifted_chebyshev_w)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    T sign = n % 2 == 0 ? 1 : -1;
    if (x == 1)
        return (T)(n + n + 1);
    if (x == 0)
        return sign;
    T y = x + x - 1;
    if (n > 4 && fabs(y) < 1) {
        T a = acos(y);
        if (cos(a / (T)2.0) != 1)
            return sin(((T)n + (T)0.5) * a) / sin(a / (T)2.0);
        return sign;
    }
    if (n == 0)
        return 1;
    if (n == 1)
        return y + y + 1;
    return FN(cheb_tail)(y + y, y + y + 1, n, st);
}

/* Hermite's H_{k+1} = 2x H_k - 2k H_{k-1} and He_{k+1} = x He_k - k
 * He_{k-1}; a NaN stays (torch's loop runs on, to the same NaN). They
 * overflow to inf and then NaN by degree 70 in float, 350 in double, for
 * every x: past HERMITE_NAN the value is NaN without the steps (later
 * torch releases return NaN past the same degrees) */
T FN(airc_hermite_h)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    if (n == 0)
        return 1;
    if (n == 1)
        return x + x;
    if (n > HERMITE_NAN)
        return NAN;
    T p = 1, q = x + x, r = q;
    for (int64_t k = 2; k < n + n && !isnan(q); k += 2) {
        r = (x + x) * q - (T)k * p;
        p = q;
        q = r;
    }
    return r;
}

T FN(airc_hermite_he)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    if (n == 0)
        return 1;
    if (n == 1)
        return x;
    if (n > HERMITE_NAN)
        return NAN;
    T p = 1, q = x, r = q;
    for (int64_t k = 1; k < n && !isnan(q); k++) {
        r = x * q - (T)k * p;
        p = q;
        q = r;
    }
    return r;
}

/* Laguerre's (k + 1) L_{k+1} = (2k + 1 - x) L_k - k L_{k-1}: 1 at x == 0 */
T FN(airc_laguerre_l)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    if (fabs(x) == 0 || n == 0)
        return 1;
    if (n == 1)
        return 1 - x;
    T p = 1, q = 1 - x, r = q;
    for (int64_t k = 1; k < n && !isnan(q); k++) {
        if (FN(too_long)(k + 1, st))
            return NAN;
        r = (((T)(k + k) + (1 - x)) * q - (T)k * p) / (T)(k + 1);
        p = q;
        q = r;
    }
    return r;
}

/* Legendre's (k + 1) P_{k+1} = (2k + 1) x P_k - k P_{k-1}: ±1 at |x| == 1 */
T FN(airc_legendre_p)(T x, T nf, airc_status *st)
{
    int64_t n = FN(degree)(nf);
    if (n < 0)
        return 0;
    if (fabs(x) == 1)
        return x > 0 || n % 2 == 0 ? 1 : -1;
    if (n == 0)
        return 1;
    if (n == 1)
        return x;
    T p = 1, q = x, r = q;
    for (int64_t k = 1; k < n && !isnan(q); k++) {
        if (FN(too_long)(k + 1, st))
            return NAN;
        r = ((T)(k + k + 1) * x * q - (T)k * p) / (T)(k + 1);
        p = q;
        q = r;
    }
    return r;
}
