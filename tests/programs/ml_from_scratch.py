"""Machine learning from scratch as tutorials publish it (P. Loeber's "ML from scratch"): k-nearest
neighbours with a list comprehension of distances, np.argsort of that list and a
collections.Counter of the neighbours' labels (NumPy's scalars as dict keys), and Gaussian naive
Bayes fitted per class of np.unique(y) with `self._mean[idx, :] = X_c.mean(axis=0)` and
predicted by np.argmax over a list of 0-d log posteriors; then accuracy and a confusion matrix."""

from collections import Counter

import numpy

SIZES = {"small": dict(n=24, m=6, d=3, k=3), "bench": dict(n=150, m=20, d=4, k=5)}


def inputs(rng, n, m, d, k):
    centers = rng.standard_normal((3, d)) * 3
    y = rng.integers(0, 3, n)
    X = centers[y] + rng.standard_normal((n, d))
    y_test = rng.integers(0, 3, m)
    X_test = centers[y_test] + rng.standard_normal((m, d))
    return X, y, X_test, y_test, k


def euclidean_distance(np, x1, x2):
    return np.sqrt(np.sum((x1 - x2) ** 2))


class KNN:
    def __init__(self, np, k=3):
        self.np = np
        self.k = k

    def fit(self, X, y):
        self.X_train = X
        self.y_train = y

    def predict(self, X):
        y_pred = [self._predict(x) for x in X]
        return self.np.array(y_pred)

    def _predict(self, x):
        distances = [euclidean_distance(self.np, x, x_train) for x_train in self.X_train]
        k_idx = self.np.argsort(distances)[: self.k]
        k_neighbor_labels = [self.y_train[i] for i in k_idx]
        most_common = Counter(k_neighbor_labels).most_common(1)
        return most_common[0][0]


class NaiveBayes:
    def __init__(self, np):
        self.np = np

    def fit(self, X, y):
        np = self.np
        n_samples, n_features = X.shape
        self._classes = np.unique(y)
        n_classes = len(self._classes)
        self._mean = np.zeros((n_classes, n_features), dtype=np.float64)
        self._var = np.zeros((n_classes, n_features), dtype=np.float64)
        self._priors = np.zeros(n_classes, dtype=np.float64)
        for idx, c in enumerate(self._classes):
            X_c = X[y == c]
            self._mean[idx, :] = X_c.mean(axis=0)
            self._var[idx, :] = X_c.var(axis=0)
            self._priors[idx] = X_c.shape[0] / float(n_samples)

    def predict(self, X):
        y_pred = [self._predict(x) for x in X]
        return self.np.array(y_pred)

    def _predict(self, x):
        np = self.np
        posteriors = []
        for idx, c in enumerate(self._classes):
            prior = np.log(self._priors[idx])
            posterior = np.sum(np.log(self._pdf(idx, x)))
            posterior = posterior + prior
            posteriors.append(posterior)
        return self._classes[np.argmax(posteriors)]

    def _pdf(self, class_idx, x):
        np = self.np
        mean = self._mean[class_idx]
        var = self._var[class_idx]
        numerator = np.exp(-((x - mean) ** 2) / (2 * var))
        denominator = np.sqrt(2 * np.pi * var)
        return numerator / denominator


def accuracy(np, y_true, y_pred):
    return np.sum(y_true == y_pred) / len(y_true)


def kernel(np, X, y, X_test, y_test, k):
    knn = KNN(np, k=k)
    knn.fit(X, y)
    knn_pred = knn.predict(X_test)
    nb = NaiveBayes(np)
    nb.fit(X, y)
    nb_pred = nb.predict(X_test)
    confusion = np.zeros((3, 3), dtype=int)
    for t, p in zip(y_test, nb_pred):
        confusion[t, p] += 1
    labels_seen = sorted(set(y))
    per_class = {c: int(np.sum(y == c)) for c in labels_seen}
    return (knn_pred, accuracy(np, y_test, knn_pred), nb_pred, accuracy(np, y_test, nb_pred),
            nb._mean, nb._var, nb._priors, confusion, [int(c) for c in labels_seen],
            [per_class[c] for c in labels_seen], np.isscalar(nb_pred[0]))
