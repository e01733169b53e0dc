"""Real Array-API consumers on lazyarray: scikit-learn (`array_api_dispatch=True`) and SciPy
(`SCIPY_ARRAY_API=1`), each call made on NumPy arrays and on lazyarray Arrays and compared.

SciPy reads SCIPY_ARRAY_API when it is first imported, and other test modules import it without,
so this runs in a fresh interpreter: `python tests/consumer_programs.py GROUP...` prints one JSON
object, case name -> "ok" or what differed (tests/test_consumers.py reads it back)."""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any, Callable

os.environ["SCIPY_ARRAY_API"] = "1"  # before scipy is imported (sklearn imports it)

import numpy as np  # noqa: E402

import lazyarray as la  # noqa: E402

Case = Callable[[Any, dict], Any]  # (namespace, inputs in that namespace) -> result(s)


def _inputs(dtype: str) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 5)).astype(dtype)
    X[:, 1] += 2 * X[:, 0]  # correlated columns: PCA/LDA have structure to find
    return {"X": X, "Xp": np.abs(X) + np.asarray(0.1, dtype),  # positive (chi2, Poisson)
            "y": (X[:, 0] + 0.3 * X[:, 2] > 0).astype(np.int64),  # two classes
            "y3": np.digitize(X[:, 0], [-0.5, 0.5]).astype(np.int64),  # three classes
            "t": (X @ np.arange(1.0, 6.0, dtype=dtype) + rng.standard_normal(40)).astype(dtype),
            "p": (1 / (1 + np.exp(-X[:, 0]))).astype(dtype),  # probabilities of class 1
            "w": rng.uniform(0.5, 2.0, 40).astype(dtype)}


# --- scikit-learn: what its "Array API support (experimental)" page lists ------------------------
def _sklearn_cases() -> dict[str, Case]:
    from sklearn import metrics as m
    from sklearn import preprocessing as pp
    from sklearn.decomposition import PCA
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as LDA
    from sklearn.kernel_approximation import Nystroem
    from sklearn.linear_model import LogisticRegression, PoissonRegressor, Ridge, RidgeCV
    from sklearn.linear_model import RidgeClassifier, RidgeClassifierCV
    from sklearn.metrics import pairwise as pw
    from sklearn.mixture import GaussianMixture
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB

    def fit_out(est: Any, attrs: tuple[str, ...], method: str = "transform", y: str | None = None):
        def case(xp: Any, d: dict) -> tuple:
            fitted = est.fit(d["X"], d[y]) if y else est.fit(d["X"])
            return (getattr(fitted, method)(d["X"]), *(getattr(fitted, a) for a in attrs))
        return case

    return {
        "PCA-full": fit_out(PCA(3, svd_solver="full"), ("components_", "explained_variance_")),
        "PCA-covariance_eigh": fit_out(PCA(2, svd_solver="covariance_eigh"), ("components_",)),
        "PCA-randomized": fit_out(PCA(2, svd_solver="randomized", random_state=0,
                                      power_iteration_normalizer="QR"), ("singular_values_",)),
        "PCA-inverse": lambda xp, d: PCA(2).fit(d["X"]).inverse_transform(d["X"][:, :2]),
        "LDA-svd": fit_out(LDA(), ("coef_",), "predict_proba", "y3"),
        "LDA-transform": fit_out(LDA(n_components=2), ("explained_variance_ratio_",), y="y3"),
        "Ridge-svd": fit_out(Ridge(solver="svd"), ("coef_", "intercept_"), "predict", "t"),
        "Ridge-weighted": lambda xp, d: Ridge().fit(d["X"], d["t"], sample_weight=d["w"]).coef_,
        "RidgeCV": fit_out(RidgeCV(alphas=(0.1, 1.0, 10.0)), ("alpha_", "coef_"), "predict", "t"),
        "RidgeClassifier": fit_out(RidgeClassifier(), ("coef_",), "decision_function", "y3"),
        "RidgeClassifierCV": fit_out(RidgeClassifierCV(), ("coef_",), "predict", "y"),
        "LogisticRegression": fit_out(LogisticRegression(), ("coef_",), "predict_proba", "y3"),
        "PoissonRegressor": lambda xp, d: PoissonRegressor(tol=1e-8).fit(d["X"],
                                                                         d["Xp"][:, 0]).coef_,
        "GaussianNB": fit_out(GaussianNB(), ("theta_", "var_"), "predict_log_proba", "y3"),
        "GaussianMixture": lambda xp, d: GaussianMixture(
            2, covariance_type="diag", random_state=0, init_params="random_from_data",
            max_iter=5).fit(d["X"]).means_,
        "Nystroem": lambda xp, d: Nystroem(n_components=10, random_state=0).fit_transform(
            d["X"]),
        "StandardScaler": fit_out(pp.StandardScaler(), ("mean_", "scale_")),
        "MinMaxScaler": fit_out(pp.MinMaxScaler(), ("data_min_",)),
        "MaxAbsScaler": fit_out(pp.MaxAbsScaler(), ("max_abs_",)),
        "Normalizer": lambda xp, d: pp.Normalizer().fit_transform(d["X"]),
        "Binarizer": lambda xp, d: pp.Binarizer(threshold=0.2).fit_transform(d["X"]),
        "PolynomialFeatures": lambda xp, d: pp.PolynomialFeatures(2).fit_transform(d["X"]),
        "KernelCenterer": lambda xp, d: pp.KernelCenterer().fit_transform(d["X"] @ d["X"].T),
        "LabelEncoder": lambda xp, d: pp.LabelEncoder().fit(d["y3"]).transform(d["y3"]),
        "label_binarize": lambda xp, d: pp.label_binarize(d["y3"], classes=[0, 1, 2]),
        "train_test_split": lambda xp, d: tuple(train_test_split(d["X"], d["t"],
                                                                 random_state=0)),
        "accuracy_score": lambda xp, d: m.accuracy_score(d["y"], d["y3"] > 0),
        "zero_one_loss": lambda xp, d: m.zero_one_loss(d["y"], d["y3"] > 0),
        "f1_score": lambda xp, d: m.f1_score(d["y3"], d["y"], average="macro"),
        "precision_recall": lambda xp, d: (m.precision_score(d["y"], d["y3"] > 0),
                                           m.recall_score(d["y"], d["y3"] > 0)),
        "confusion_matrix": lambda xp, d: m.confusion_matrix(d["y3"], d["y"]),
        "log_loss": lambda xp, d: m.log_loss(d["y"], d["p"]),
        "brier_score_loss": lambda xp, d: m.brier_score_loss(d["y"], d["p"], sample_weight=d["w"]),
        "roc_curve": lambda xp, d: tuple(m.roc_curve(d["y"], d["p"])),
        "roc_auc_score": lambda xp, d: m.roc_auc_score(d["y"], d["p"]),
        "r2_score": lambda xp, d: m.r2_score(d["t"], d["X"][:, 0], sample_weight=d["w"]),
        "mean_squared_error": lambda xp, d: m.mean_squared_error(d["t"], d["X"][:, 1]),
        "mean_absolute_error": lambda xp, d: m.mean_absolute_error(d["t"], d["X"][:, 1]),
        "mean_pinball_loss": lambda xp, d: m.mean_pinball_loss(d["t"], d["X"][:, 1]),
        "mean_tweedie_deviance": lambda xp, d: m.mean_tweedie_deviance(d["Xp"][:, 0],
                                                                      d["Xp"][:, 1], power=1.5),
        "explained_variance": lambda xp, d: m.explained_variance_score(d["t"], d["X"][:, 1]),
        "cosine_similarity": lambda xp, d: pw.cosine_similarity(d["X"]),
        "euclidean_distances": lambda xp, d: pw.euclidean_distances(d["X"], d["X"][:7]),
        "rbf_kernel": lambda xp, d: pw.rbf_kernel(d["X"], gamma=0.3),
        "linear_kernel": lambda xp, d: pw.linear_kernel(d["X"]),
        "polynomial_kernel": lambda xp, d: pw.polynomial_kernel(d["X"], degree=2),
        "sigmoid_kernel": lambda xp, d: pw.sigmoid_kernel(d["X"]),
        "chi2_kernel": lambda xp, d: pw.chi2_kernel(d["Xp"]),
        "additive_chi2_kernel": lambda xp, d: pw.additive_chi2_kernel(d["Xp"]),
        "paired_distances": lambda xp, d: (pw.paired_euclidean_distances(d["X"], d["Xp"]),
                                           pw.paired_cosine_distances(d["X"], d["Xp"])),
    }


# --- SciPy: the functions its array-API pages list as supported -----------------------------------
def _scipy_cases() -> dict[str, Case]:
    import scipy.cluster.vq as vq
    import scipy.fft as sf
    import scipy.integrate as si
    import scipy.signal as sg
    import scipy.special as sc
    import scipy.stats as st

    def sample(xp: Any, d: dict) -> Any:  # a larger sample: the normality tests need n >= 20
        return xp.concatenate([d["X"][:, :3], d["X"][:, 2:]], axis=0)

    return {
        "special.erf": lambda xp, d: sc.erf(d["X"]),
        "special.ndtr": lambda xp, d: sc.ndtr(d["X"]),
        "special.log_ndtr": lambda xp, d: sc.log_ndtr(d["X"]),
        "special.ndtri": lambda xp, d: sc.ndtri(d["p"]),
        "special.gammaln": lambda xp, d: sc.gammaln(d["Xp"]),
        "special.xlogy": lambda xp, d: sc.xlogy(d["Xp"], d["Xp"]),
        "special.entr": lambda xp, d: sc.entr(d["p"]),
        "special.expit_logit": lambda xp, d: (sc.expit(d["X"]), sc.logit(d["p"])),
        "special.i0": lambda xp, d: sc.i0(d["X"]),
        "special.logsumexp": lambda xp, d: (sc.logsumexp(d["X"], axis=1), sc.logsumexp(d["X"]),
                                            sc.logsumexp(d["X"], b=d["Xp"], axis=0)),
        "special.softmax": lambda xp, d: (sc.softmax(d["X"], axis=1),
                                          sc.log_softmax(d["X"], axis=0)),
        "stats.moment": lambda xp, d: st.moment(d["X"], order=3, axis=0),
        "stats.skew_kurtosis": lambda xp, d: (st.skew(d["X"]), st.kurtosis(d["X"], axis=1)),
        "stats.zscore": lambda xp, d: (st.zscore(d["X"]), st.zmap(d["X"], d["Xp"])),
        "stats.variation": lambda xp, d: st.variation(d["Xp"], axis=0),
        "stats.sem": lambda xp, d: st.sem(d["X"]),
        "stats.means": lambda xp, d: (st.gmean(d["Xp"]), st.hmean(d["Xp"]),
                                      st.pmean(d["Xp"], 2.5)),
        "stats.describe": lambda xp, d: tuple(st.describe(d["X"]))[1:],
        "stats.pearsonr": lambda xp, d: tuple(st.pearsonr(d["X"][:, 0], d["X"][:, 1])),
        "stats.ttest_1samp": lambda xp, d: tuple(st.ttest_1samp(d["X"], 0.0))[:2],
        "stats.ttest_ind": lambda xp, d: tuple(st.ttest_ind(d["X"], d["Xp"]))[:2],
        "stats.ttest_rel": lambda xp, d: tuple(st.ttest_rel(d["X"], d["Xp"]))[:2],
        "stats.entropy": lambda xp, d: st.entropy(d["Xp"], axis=0),
        "stats.circmean": lambda xp, d: (st.circmean(d["X"]), st.circvar(d["X"])),
        "stats.normaltest": lambda xp, d: (tuple(st.skewtest(sample(xp, d))),
                                           tuple(st.kurtosistest(sample(xp, d))),
                                           tuple(st.normaltest(sample(xp, d))),
                                           tuple(st.jarque_bera(sample(xp, d)))),
        "stats.chisquare": lambda xp, d: tuple(st.chisquare(d["Xp"][:, 0] * 10)),
        "stats.rankdata": lambda xp, d: st.rankdata(d["X"], axis=0),
        "stats.tmean": lambda xp, d: (st.tmean(d["X"], (-1, 1)), st.tstd(d["X"])),
        "fft.fft": lambda xp, d: (sf.fft(d["X"]), sf.ifft(d["X"], axis=0), sf.fftn(d["X"])),
        "fft.rfft": lambda xp, d: (sf.rfft(d["X"], axis=0), sf.irfft(d["X"]), sf.hfft(d["X"])),
        "fft.dct": lambda xp, d: (sf.dct(d["X"]), sf.idct(d["X"], type=2)),
        "fft.helpers": lambda xp, d: (sf.fftfreq(8, xp=xp), sf.fftshift(d["X"])),
        "integrate.trapezoid": lambda xp, d: (si.trapezoid(d["X"], axis=0),
                                              si.trapezoid(d["X"][:, 0], d["Xp"][:, 0])),
        "integrate.cumulative": lambda xp, d: (si.cumulative_trapezoid(d["X"], axis=0),
                                               si.cumulative_simpson(d["X"], axis=0)),
        "cluster.whiten": lambda xp, d: vq.whiten(d["X"]),
        "cluster.vq": lambda xp, d: tuple(vq.vq(d["X"], d["X"][:3])),
        "signal.convolve": lambda xp, d: (sg.convolve(d["X"][:, 0], d["t"]),
                                          sg.fftconvolve(d["X"][:, 0], d["t"])),
        "signal.correlate": lambda xp, d: sg.correlate(d["X"], d["Xp"], mode="same"),
        "signal.detrend": lambda xp, d: sg.detrend(d["X"], axis=0),
        "signal.get_window": lambda xp, d: sg.get_window("hann", 8, xp=xp),
        "signal.lfilter": lambda xp, d: sg.lfilter(xp.asarray([1.0, 0.5]), xp.asarray([1.0]),
                                                   d["X"][:, 0]),
        "signal.hilbert": lambda xp, d: sg.hilbert(d["X"][:, 0]),
    }


# Enough to meet every kind of call each consumer makes, for the fast tier.
FAST = ("PCA-full", "Ridge-svd", "LDA-svd", "LogisticRegression", "StandardScaler",
        "brier_score_loss", "r2_score", "rbf_kernel", "roc_curve", "LabelEncoder",
        "special.logsumexp", "stats.skew_kurtosis", "stats.pearsonr", "fft.rfft",
        "integrate.trapezoid", "cluster.vq")


def _atol(dtype: str) -> float:
    return float(np.finfo(dtype).eps) * 1000  # scikit-learn's own `_atol_for_type`


# Iterative solvers stop on a float32 tolerance: scikit-learn's own test of PoissonRegressor
# compares float32 results with rtol 2e-3 (float32 steps round apart on each namespace's path).
ITERATIVE = ("PoissonRegressor", "LogisticRegression", "GaussianMixture")


def _leaves(result: Any) -> list[Any]:
    return [leaf for part in result for leaf in _leaves(part)] if isinstance(
        result, (tuple, list)) else [result]


def compare(want: Any, got: Any, dtype: str, rtol: float) -> str:
    """'ok', or how `got` (from lazyarray inputs) differs from `want` (NumPy's)."""
    wants, gots = _leaves(want), _leaves(got)
    if len(wants) != len(gots):
        return f"{len(gots)} results, NumPy's call gives {len(wants)}"
    for i, (w, g) in enumerate(zip(wants, gots)):
        if isinstance(w, np.ndarray) and not isinstance(g, la.Array):
            return f"result {i}: {type(g).__name__}, not a lazyarray Array"
        if isinstance(w, np.generic) and not (isinstance(g, la.Array) and g.shape == ()):
            return f"result {i}: {type(g).__name__}, not a 0-d Array (NumPy's call: a scalar)"
        if not isinstance(w, (np.ndarray, np.generic)) and type(g) is not type(w):
            return f"result {i}: {type(g).__name__} where NumPy's call gives {type(w).__name__}"
        g_host, w_host = np.asarray(g), np.asarray(w)
        if (g_host.dtype, g_host.shape) != (w_host.dtype, w_host.shape):
            return f"result {i}: {g_host.dtype}{g_host.shape}, NumPy's {w_host.dtype}{w_host.shape}"
        if not np.allclose(g_host, w_host, rtol=rtol, atol=_atol(dtype), equal_nan=True):
            return f"result {i}: values differ by up to {np.nanmax(np.abs(g_host - w_host))}"
    return "ok"


def run_case(case: Case, dtype: str, rtol: float) -> str:
    np_inputs = _inputs(dtype)
    la_inputs = {k: la.asarray(v) for k, v in np_inputs.items()}
    want = case(np, np_inputs)
    try:
        got = case(la, la_inputs)
        return compare(want, got, dtype, rtol)
    except Exception as error:  # the report names the consumer's line that failed
        frame = traceback.extract_tb(error.__traceback__)[-1]
        where = f"{frame.filename.rpartition('site-packages/')[2]}:{frame.lineno}"
        return f"{type(error).__name__}: {error} ({where})"


def main(groups: list[str]) -> dict[str, str]:
    import sklearn

    sklearn.set_config(array_api_dispatch=True)
    cases = {**_sklearn_cases(), **_scipy_cases()}
    names = FAST if groups == ["fast"] else tuple(cases)
    return {f"{name}[{dtype}]": run_case(cases[name], dtype, 2e-3 if (
                name in ITERATIVE and dtype == "float32") else _atol(dtype))
            for name in names for dtype in ("float64", "float32")}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
