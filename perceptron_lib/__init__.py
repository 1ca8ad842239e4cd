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

``import perceptron_lib`` loads nothing else: each module loads when one of its
names is first used (``pl.perceptron`` loads :mod:`perceptron_lib.algorithm` and
numpy), the plot helpers (:mod:`perceptron_lib.plotting`, matplotlib) and the compiled
fast path (numba) too.
"""

from __future__ import annotations

import importlib
import sys
import types

#: The library's names, by the module that defines them.  ``import perceptron_lib``
#: loads none of these modules: each loads when one of its names is first used
#: (``pl.perceptron`` loads :mod:`.algorithm`), so that a notebook, and a graded
#: run of one, pays only for the chapters it uses.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "algorithm": ("PerceptronResult", "Update", "perceptron", "perceptron_through_origin",
        "predict", "update"),
    "bounds": ("freund_schapire_bound", "kernel_mistake_bound", "margin_perceptron_bound",
        "multiclass_mistake_bound", "online_to_batch_bound",
        "online_to_batch_expectation_bound", "online_to_batch_risk_bound", "rb_squared_bound"),
    "convergence": ("LemmaCheck", "ProofTrace", "check_lemmas", "proof_quantities"),
    "datasets": ("notes_example", "offset_example", "spam_messages"),
    "demos.data": ("DemoData", "make_demo_data"),
    "erm": ("ERMResult", "erm_halfspace", "training_errors"),
    "evaluation": ("accuracy", "cross_val_accuracy", "kfold_indices", "majority_baseline",
        "standardize", "train_test_split"),
    "generate": ("SeparableData", "flip_labels", "make_noisy", "make_separable",
        "make_xor", "sample_like"),
    "hinge": ("hinge_deficiency",),
    "kernel_theory": ("gram_matrix", "is_positive_semidefinite", "kernel_margin",
        "tanh_kernel"),
    "margin": ("margin", "mistake_bound", "point_margins", "radius", "signed_distance"),
    "margin_perceptron": ("margin_perceptron",),
    "multiclass": ("KeslerData", "MulticlassResult", "MulticlassUpdate",
        "kesler_construction", "kesler_weights", "multiclass_margin",
        "multiclass_perceptron", "multiclass_predict", "multiclass_scores"),
    "offset": ("add_offset_feature",),
    "pocket": ("PocketResult", "pocket_perceptron"),
    "separability": ("MaxMarginResult", "is_linearly_separable", "max_margin"),
    "shattering": ("shatters", "unrealizable_labelings", "vc_dimension_halfspaces"),
    "spam": ("FEATURE_NAMES", "count_message", "spam_feature_matrix", "spam_features",
        "tokenize"),
    "spam7": ("Spam7", "load_spam7"),
    "winnow": ("WinnowComparison", "WinnowResult", "sparse_disjunction", "winnow",
        "winnow_mistake_bound", "winnow_predict", "winnow_vs_perceptron"),
    "variants": ("AveragedResult", "KernelResult", "OneVsAllResult", "VotedResult",
        "averaged_perceptron", "kernel_decision", "kernel_perceptron", "kernel_predict",
        "linear_kernel", "one_vs_all", "one_vs_all_predict", "one_vs_all_scores",
        "polynomial_kernel", "rbf_kernel", "voted_perceptron", "voted_predict"),
}

__version__ = "0.1.0"

__all__ = [
    "FEATURE_NAMES",
    "AveragedResult",
    "DemoData",
    "ERMResult",
    "KernelResult",
    "KeslerData",
    "LemmaCheck",
    "MaxMarginResult",
    "MulticlassResult",
    "MulticlassUpdate",
    "OneVsAllResult",
    "Perceptron",
    "PerceptronResult",
    "PocketResult",
    "ProofTrace",
    "SeparableData",
    "Spam7",
    "Update",
    "VotedResult",
    "WinnowComparison",
    "WinnowResult",
    "accuracy",
    "add_offset_feature",
    "averaged_perceptron",
    "check_lemmas",
    "count_message",
    "cross_val_accuracy",
    "demos",
    "erm_halfspace",
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
    "pocket_perceptron",
    "point_margins",
    "polynomial_kernel",
    "predict",
    "proof_quantities",
    "radius",
    "rbf_kernel",
    "sample_like",
    "shatters",
    "signed_distance",
    "spam_feature_matrix",
    "spam_features",
    "spam_messages",
    "sparse_disjunction",
    "standardize",
    "tanh_kernel",
    "tokenize",
    "train_test_split",
    "training_errors",
    "unrealizable_labelings",
    "update",
    "vc_dimension_halfspaces",
    "voted_perceptron",
    "voted_predict",
    "widgets",
    "winnow",
    "winnow_mistake_bound",
    "winnow_predict",
    "winnow_vs_perceptron",
]

#: Modules reached as ``pl.<name>``, each loaded on first use (``plotting`` and
#: ``widgets`` load matplotlib and ipywidgets), with the module each name stands for.
_LAZY = {"demos": "demos", "playground": "demos.playground", "plotting": "plotting",
         "widgets": "widgets"}
_OWNER = {name: module for module, names in _EXPORTS.items() for name in names}


def _load(module: str) -> None:
    """Import the library module ``module`` and bind its exported names here."""
    loaded = importlib.import_module(f".{module}", __name__)
    for name in _EXPORTS[module]:
        setattr(sys.modules[__name__], name, getattr(loaded, name))


def load_all() -> None:
    """Load every module of :data:`_EXPORTS` (what ``import perceptron_lib`` did before
    its modules loaded on first use); the check cells do this before they put their
    stand-ins in place (:mod:`perceptron_lib.grading.sandbox.standins`)."""
    for module in _EXPORTS:
        _load(module)


def __getattr__(name: str):
    if name in _OWNER:
        _load(_OWNER[name])
        return globals()[name]
    if name in _LAZY:
        return importlib.import_module(f".{_LAZY[name]}", __name__)
    if name == "Perceptron":  # the scikit-learn estimator: loads scikit-learn on first use
        return importlib.import_module(".estimator", __name__).Perceptron
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Library(types.ModuleType):
    """The package, which keeps a function's name for the function: importing the
    module :mod:`.margin` binds ``perceptron_lib.margin``, which is the function
    ``margin`` (likewise ``margin_perceptron``), whichever loads first."""

    def __setattr__(self, name: str, value: object) -> None:
        if (isinstance(value, types.ModuleType) and name in _OWNER
                and value.__name__ == f"{__name__}.{name}"):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Library
