"""The logistic regression of `tessera train`'s fit, in numpy, for the research scripts
(fit-mlp-diffs.py, fit-mlp-obs.py): Newton's method with L2 1e-4; fitted on the training
games only, it reproduces the held-out log loss `tessera train --fit` prints to four
decimals. Not part of the engine."""

import numpy as np


def log_loss(p, y):
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def fit_logistic(x, y, l2=1e-4, steps=30):
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = sigmoid(x @ w)
        g = x.T @ (p - y) / len(y) + l2 * w
        h = (x * (p * (1 - p))[:, None]).T @ x / len(y) + l2 * np.eye(len(w))
        w -= np.linalg.solve(h, g)
    return w
