"""The project's own `erf` and `erfc` (float32, float64), as C helpers like c_math.py's.

Branch-free (selects and one table gather), no libm call but `fma` (exact by definition: the same
bits in every loop shape and on CUDA), so gcc vectorizes it under `omp simd` and the vector body,
the scalar tail and the CUDA dialect compute identical bits.

Formulas, s = |x|:
- s < 0.5: erf x = x + x Q(x^2), Q(z) = erf(sqrt z)/sqrt z - 1 by a degree-9 polynomial (the
  leading 2/sqrt(pi) - 1 is small, so its rounding barely matters); erfc x = (1 - x) - x Q(x^2).
- s >= 0.5: erfc s = exp(-s^2) F(s), F(s) = erfc(s) exp(s^2) by a degree-13 polynomial in
  t = s - c on each of 15 intervals [k/2, k/2 + 1/2) up to 8 (c the interval's centre), and on
  [8, 28] as F(s) = u G(u), u = 1/s, G by a degree-13 polynomial around the interval's centre;
  the 16 rows of coefficients are one table, each lane gathers its row. s^2 = h + l exactly (fma),
  exp(-s^2) = exp(-h) (1 - l). erf = 1 - erfc (erfc <= 0.48 there: its error halves), 1 beyond 6;
  erfc(-s) = 2 - erfc(s); erfc = 0 beyond 27.3 (below the smallest subnormal).
- float32 runs the float64 function and rounds once.
The coefficients are Chebyshev fits (`mpmath.chebyfit`, 50 digits) converted to the monomial basis
and rounded to double: relative fit error below 1e-17 on every interval (`fit_coefficients` below
reproduces them; it needs mpmath, a test-only dependency). Measured bounds: docs/semantics.md.
"""

from __future__ import annotations

N_COEF = 14  # per interval: degree 13
N_ROWS = 16  # 15 intervals of width 1/2 on [0.5, 8), then [8, 28] in u = 1/s
_TABLE = [
    (0.5069376502931449, -0.3679726916557954, 0.23095813155129497, -0.12983606199488007,
     0.06679054252841538, -0.031897262039946896, 0.01428919858470859, -0.006051532271776434,
     0.002437641069942269, -0.000938513222881505, 0.00034666379283020214,
     -0.00012332717214560827, 4.337915907561481e-05, -1.440376961255891e-05),
    (0.3678229164523611, -0.20882187596460985, 0.10679557149659845, -0.05021827439590747,
     0.022011364250946238, -0.009081627632959959, 0.003553109894683297, -0.0013257829272368543,
     0.0004739707006153454, -0.00016296012111131222, 5.404491508514403e-05,
     -1.7341459254977562e-05, 5.501701839828387e-06, -1.6610767030625112e-06),
    (0.2849722347374364, -0.1309763455144852, 0.05576363008708723, -0.022259995241388317,
     0.008404319207340187, -0.0030209746514281146, 0.001039204521356914,
     -0.00034353335318474803, 0.0001095053381684006, -3.375536830552878e-05,
     1.0085518680104132e-05, -2.92763224927802e-06, 8.406449608561853e-07,
     -2.3131132443809953e-07),
    (0.23108725873039188, -0.08848650280874916, 0.031992627410706256, -0.011002060756440045,
     0.0036189953543597905, -0.0011437284836541604, 0.0003485354218814771,
     -0.00010272108111777696, 2.9353254863530408e-05, -8.150285053705488e-06,
     2.2028461470983834e-06, -5.805909757132036e-07, 1.5147418685283685e-07,
     -3.8093997572624824e-08),
    (0.1936620962790687, -0.06323763756063484, 0.019758592987322864, -0.005934337896997976,
     0.001719581885289515, -0.0004821950849811217, 0.00013118180050158485,
     -3.469860957140213e-05, 8.940157366119897e-06, -2.2473737254695783e-06,
     5.519449177126979e-07, -1.3261857188670576e-07, 3.1568164431976944e-08,
     -7.279738484278512e-09),
    (0.16633534842682188, -0.047199402321170376, 0.012937290883018157, -0.003435471300907574,
     0.0008860045775343321, -0.00022238256956848873, 5.442040880644052e-05,
     -1.3004640264149419e-05, 3.0388322525197412e-06, -6.952081224454215e-07,
     1.558749388297477e-07, -3.4288600060257634e-08, 7.478692856076797e-09,
     -1.586936266709577e-09),
    (0.14558972127503855, -0.03645625753272353, 0.008878755527325298, -0.00210728287016911,
     0.00048822238209558116, -0.00011057957492429544, 2.4516325375175097e-05,
     -5.326672789022946e-06, 1.1353256642536615e-06, -2.3760040556954934e-07,
     4.8863416523494246e-08, -9.882877201280105e-09, 1.983538604342367e-09,
     -3.886928977136085e-10),
    (0.12934527478598792, -0.028944331414615332, 0.006331866273872749, -0.0013559331671040983,
     0.0002845751568401692, -5.8595500213358165e-05, 1.1848093644133921e-05,
     -2.3546006354783887e-06, 4.602602510051801e-07, -8.855436560091711e-08,
     1.678048346916335e-08, -3.1337186685536493e-09, 5.811724586030923e-10,
     -1.0555257375577111e-10),
    (0.11630270721024731, -0.02350344859816315, 0.00466132636897234, -0.0009080988970296905,
     0.00017392830404065597, -3.277578113463187e-05, 6.081114550292908e-06,
     -1.1115677200716773e-06, 2.002919741920613e-07, -3.5595747942067336e-08,
     6.242335630900769e-09, -1.0807446894693348e-09, 1.859478945996065e-10,
     -3.141135105048579e-11),
    (0.1056127354688918, -0.01944544467214865, 0.003524150940111397, -0.0006291014910425433,
     0.00011068405606902267, -1.920407867207035e-05, 3.287547680190039e-06,
     -5.55558100260598e-07, 9.271691472357647e-08, -1.52876234438342e-08,
     2.4913485679760037e-09, -4.0142946040380724e-10, 6.432031515574242e-11,
     -1.0140384592111234e-11),
    (0.09669877816971392, -0.016343218143802483, 0.002725273842849635, -0.00044859569827805586,
     7.2924288875407e-05, -1.1712414897786451e-05, 1.8593010710359471e-06,
     -2.918382112209443e-07, 4.5307839541466324e-08, -6.959585888416656e-09,
     1.0580344538295682e-09, -1.5924080266529063e-10, 2.384598604374149e-11,
     -3.5200073691581453e-12),
    (0.08915663178727438, -0.0139212697545827, 0.0021486958211325118, -0.00032794724833633417,
     4.9512759515211706e-05, -7.397000546504483e-06, 1.0938353665164203e-06,
     -1.60151287358778e-07, 2.3222455274678816e-08, -3.3357650839409882e-09,
     4.74781328455259e-10, -6.697421638495729e-11, 9.40464753540593e-12, -1.3038514623932293e-12),
    (0.08269505677505307, -0.01199590063229627, 0.0017227275070532352, -0.0002449933064579556,
     3.451134423101759e-05, -4.816693159434775e-06, 6.662218016097882e-07,
     -9.134171387438075e-08, 1.2416308292602761e-08, -1.6736962864193206e-09,
     2.2377042398033203e-10, -2.967938580703561e-11, 3.9202830825707735e-12,
     -5.119372913761977e-13),
    (0.0770991803512599, -0.010441052002244, 0.0014015533349909033, -0.0001865268823733005,
     2.4616718892237405e-05, -3.222268161831734e-06, 4.1842490631865704e-07,
     -5.3910740290851303e-08, 6.893009823291225e-09, -8.74759829798184e-10,
     1.1019972343610302e-10, -1.3783267544691303e-11, 1.7175179308139687e-12,
     -2.1183224507356643e-13),
    (0.07220717081466976, -0.009168019468131287, 0.0011550199366522939, -0.00014440997271733912,
     1.7921324046457802e-05, -2.207884542916477e-06, 2.7007294628484694e-07,
     -3.280548834496836e-08, 3.957602911383781e-09, -4.74236856091448e-10,
     5.645325472646042e-11, -6.6768091787461754e-12, 7.869983810141406e-13,
     -9.190883007734599e-14),
    (0.5623853861121489, -0.04447905786497271, -0.26633568792143525, 0.1256859121102051,
     0.3306165980465344, -0.41509981097817855, -0.514276782992443, 1.5478752192252572,
     0.35500145678265044, -6.029891283273746, 4.871667252147059, 21.663040655691322,
     -48.574520543739496, -48.91182352841455),
]
_CU = 0.08035714285714286
_SMALL = [1.1283791670955126, -0.3761263890318375, 0.1128379167095487, -0.02686617064499972,
          0.0052239776220169365, -0.0008548326510724796, 0.00012055286202005714,
          -1.4923003368152099e-05, 1.637123442577e-06, -1.462091340945175e-07]
_SMALL0M1 = 0.1283791670955126


def fit_coefficients() -> dict:
    """Recompute the tables above (mpmath; ~3 s): rows of F (then G) coefficients, c0 first."""
    import mpmath as mp  # a test-extra dependency, for this maintenance function only

    mp.mp.dps = 50
    f = lambda x: mp.erfc(x) * mp.exp(x * x)  # noqa: E731
    g = lambda u: f(1 / u) / u  # noqa: E731
    rows = []
    for i in range(N_ROWS - 1):
        c = mp.mpf(i + 1) / 2 + mp.mpf(1) / 4
        p = mp.chebyfit(lambda t: f(c + t), [-0.25, 0.25], N_COEF)
        rows.append(tuple(float(v) for v in reversed(p)))
    lo, hi = mp.mpf(1) / 28, mp.mpf(1) / 8
    cu = (lo + hi) / 2
    p = mp.chebyfit(lambda t: g(cu + t), [-(hi - lo) / 2, (hi - lo) / 2], N_COEF)
    rows.append(tuple(float(v) for v in reversed(p)))
    p = list(reversed(mp.chebyfit(
        lambda z: mp.erf(mp.sqrt(z)) / mp.sqrt(z) if z > 0 else 2 / mp.sqrt(mp.pi), [0, 0.25], 10)))
    return {"table": rows, "cu": float(cu), "small": [float(v) for v in p],
            "small0m1": float(p[0] - 1)}


def table_text(qualifier: str) -> str:
    """The coefficient rows: `static const` in C, `__device__` memory on CUDA."""
    storage = "static __device__ const" if "__device__" in qualifier else "static const"
    rows = ",\n    ".join(", ".join(repr(v) for v in row) for row in _TABLE)
    return f"{storage} double la_erfc_table[{N_ROWS * N_COEF}] = {{\n    {rows}}};"


def _fma_horner(var: str, coefs: list[str]) -> str:
    text = coefs[-1]
    for c in reversed(coefs[:-1]):
        text = f"fma({text}, {var}, {c})"
    return text


def _small_q() -> str:
    """Q(z) = erf(sqrt z)/sqrt z - 1 on [0, 1/4]."""
    return _fma_horner("z", [repr(_SMALL0M1)] + [repr(c) for c in _SMALL[1:]])


def _erfcbig(dt, t: str):
    """erfc(s) for s >= 0.5 (any s >= 0 computes without traps; NaN, inf: selected away)."""
    if str(dt) != "float64":
        raise KeyError("la_erfcbig is float64 only")
    coefs = [f"la_erfc_table[b + {k}]" for k in range(N_COEF)]  # `c = table + b` stops gcc 12
    body = (
        "{\n"
        "    double sc = s < 8.0 ? s : 8.0;                  /* NaN, inf: the last row */\n"
        "    int64_t i = (int64_t)(sc + sc) - 1;\n"
        "    i = i < 0 ? 0 : i;\n"
        "    double u = 1.0 / s;\n"
        f"    double t = i == {N_ROWS - 1} ? u - {_CU!r} : s - (0.5 * (double)i + 0.75);\n"
        f"    int64_t b = {N_COEF} * i;\n"
        f"    double v = {_fma_horner('t', coefs)};\n"
        f"    v = i == {N_ROWS - 1} ? v / s : v;            /* u G(u): u's rounding stays out */\n"
        "    double h = s * s, l = fma(s, s, -h);            /* s^2 = h + l exactly */\n"
        "    double e = la_expcore_f64(h > 746.0 ? -746.0 : -h);\n"
        "    double r = e * (v - v * l);\n"
        "    return s > 27.3 ? 0.0 : r;\n"
        "}"
    )
    return "s", body, ("la_erfc_table", "la_expcore_f64")


def _erf(dt, t: str):
    if str(dt) == "float32":
        return "a", "(float)la_erf_f64((double)a)", ("la_erf_f64",)
    body = (
        "{\n"
        "    double s = fabs(a), z = a * a;\n"
        f"    double small = a + a * ({_small_q()});\n"
        "    double big = 1.0 - la_erfcbig_f64(s);\n"
        "    big = s >= 6.0 ? 1.0 : big;\n"
        "    big = copysign(big, a);\n"
        "    double res = s < 0.5 ? small : big;\n"
        "    return a != a ? a : res;\n"
        "}"
    )
    return "a", body, ("la_erfcbig_f64",)


def _erfc(dt, t: str):
    if str(dt) == "float32":
        return "a", "(float)la_erfc_f64((double)a)", ("la_erfc_f64",)
    body = (
        "{\n"
        "    double s = fabs(a), z = a * a;\n"
        f"    double small = (1.0 - a) - a * ({_small_q()});\n"
        "    double e = la_erfcbig_f64(s);\n"
        "    double big = a < 0.0 ? 2.0 - e : e;\n"
        "    double res = s < 0.5 ? small : big;\n"
        "    return a != a ? a : res;\n"
        "}"
    )
    return "a", body, ("la_erfcbig_f64",)


GENERATORS = {"erfcbig": _erfcbig, "erf": _erf, "erfc": _erfc}
