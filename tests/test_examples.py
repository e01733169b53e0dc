"""The training examples train: their loss falls (short runs of the scripts' own functions)."""

import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.exhaustive  # ~6 s of compiles; the fast tier's demo (.ci/run) runs an MLP too
def test_train_mlp_loss_falls():
    losses = _load("train_mlp").train(steps=40, hidden=16, quiet=True)
    assert losses[-1] < 0.8 * losses[0]


@pytest.mark.exhaustive
def test_train_lstm_loss_falls():
    losses = _load("train_lstm").train(steps=30, hidden=8, length=4, quiet=True)
    assert sum(losses[-5:]) < 0.8 * sum(losses[:5])
