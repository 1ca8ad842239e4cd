"""perceptron_lib: the small library behind the Perceptron Course.

Every public function mirrors one idea of the book and names its chapter in its
docstring.  Conventions (stated once in the book's introduction):

- ``X`` has shape (n, d): one example per row (the lecture notes write columns).
- Labels are -1 and +1; anything else is an error naming the values found.
- A mistake is ``y * (theta . x + theta_0) <= 0``; :func:`predict` gives +1 exactly
  when the score is ``> 0``.  A point on the boundary is a mistake for either label.
- Examples are visited in the given order; shuffling happens only when asked, with a
  seed.
- Inputs are never modified.

``import perceptron_lib`` loads numpy only.  The plot helpers
(:mod:`perceptron_lib.plotting`, matplotlib) and the compiled fast path (numba) load
on first use.
"""

from __future__ import annotations

import importlib

from .algorithm import (
    PerceptronResult,
    Update,
    perceptron,
    perceptron_through_origin,
    predict,
    update,
)
from .bounds import (
    freund_schapire_bound,
    kernel_mistake_bound,
    margin_perceptron_bound,
    multiclass_mistake_bound,
    online_to_batch_bound,
)
from .convergence import LemmaCheck, ProofTrace, check_lemmas, proof_quantities
from .datasets import notes_example, offset_example, spam_messages
from .demo_data import DemoData, make_demo_data
from .evaluation import (
    accuracy,
    cross_val_accuracy,
    kfold_indices,
    majority_baseline,
    standardize,
    train_test_split,
)
from .generate import SeparableData, flip_labels, make_noisy, make_separable, make_xor
from .hinge import hinge_deficiency
from .kernel_theory import gram_matrix, is_positive_semidefinite, kernel_margin, tanh_kernel
from .margin import margin, mistake_bound, point_margins, radius, signed_distance
from .margin_perceptron import margin_perceptron
from .multiclass import (
    KeslerData,
    MulticlassResult,
    MulticlassUpdate,
    kesler_construction,
    kesler_weights,
    multiclass_margin,
    multiclass_perceptron,
    multiclass_predict,
    multiclass_scores,
)
from .offset import add_offset_feature
from .separability import MaxMarginResult, is_linearly_separable, max_margin
from .spam import FEATURE_NAMES, count_message, spam_feature_matrix, spam_features, tokenize
from .spam7 import Spam7, load_spam7
from .variants import (
    AveragedResult,
    KernelResult,
    OneVsAllResult,
    VotedResult,
    averaged_perceptron,
    kernel_decision,
    kernel_perceptron,
    kernel_predict,
    linear_kernel,
    one_vs_all,
    one_vs_all_predict,
    one_vs_all_scores,
    polynomial_kernel,
    rbf_kernel,
    voted_perceptron,
    voted_predict,
)

__version__ = "0.1.0"

__all__ = [
    "FEATURE_NAMES",
    "AveragedResult",
    "DemoData",
    "KernelResult",
    "KeslerData",
    "LemmaCheck",
    "MaxMarginResult",
    "MulticlassResult",
    "MulticlassUpdate",
    "OneVsAllResult",
    "Perceptron",
    "PerceptronResult",
    "ProofTrace",
    "SeparableData",
    "Spam7",
    "Update",
    "VotedResult",
    "accuracy",
    "add_offset_feature",
    "averaged_perceptron",
    "check_lemmas",
    "count_message",
    "cross_val_accuracy",
    "flip_labels",
    "freund_schapire_bound",
    "gram_matrix",
    "hinge_deficiency",
    "is_linearly_separable",
    "is_positive_semidefinite",
    "kernel_decision",
    "kernel_margin",
    "kernel_mistake_bound",
    "kernel_perceptron",
    "kernel_predict",
    "kesler_construction",
    "kesler_weights",
    "kfold_indices",
    "linear_kernel",
    "load_spam7",
    "majority_baseline",
    "make_demo_data",
    "make_noisy",
    "make_separable",
    "make_xor",
    "margin",
    "margin_perceptron",
    "margin_perceptron_bound",
    "max_margin",
    "mistake_bound",
    "multiclass_margin",
    "multiclass_mistake_bound",
    "multiclass_perceptron",
    "multiclass_predict",
    "multiclass_scores",
    "notes_example",
    "offset_example",
    "one_vs_all",
    "one_vs_all_predict",
    "one_vs_all_scores",
    "online_to_batch_bound",
    "perceptron",
    "perceptron_through_origin",
    "playground",
    "plotting",
    "point_margins",
    "polynomial_kernel",
    "predict",
    "proof_quantities",
    "radius",
    "rbf_kernel",
    "signed_distance",
    "spam_feature_matrix",
    "spam_features",
    "spam_messages",
    "standardize",
    "tanh_kernel",
    "tokenize",
    "train_test_split",
    "update",
    "voted_perceptron",
    "voted_predict",
    "widgets",
]

_LAZY = {"playground", "plotting", "widgets"}


def __getattr__(name: str):
    if name in _LAZY:
        return importlib.import_module(f".{name}", __name__)
    if name == "Perceptron":  # the scikit-learn estimator: loads scikit-learn on first use
        return importlib.import_module(".estimator", __name__).Perceptron
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
