"""Explorers: interactive views of the book's ideas for a live Jupyter kernel.

Each explorer is an object with a live ipywidgets interface (``.ui``), methods that do
what its buttons and sliders do (so it can be driven from code and tested), and
``figure()``, which draws its current state.  Put an explorer as the last expression of
a cell: Jupyter shows the live interface, while the book's static pages, which have no
kernel, show a picture of the starting state and say how to run it live (the site is
configured to drop the widget view, so it never shows controls that do nothing).

- :class:`StepTrainer` (chapter 1): the perceptron one example at a time.
- :class:`OffsetExplorer` (chapter 2): 1-D data with a threshold, and the lifted picture.
- :class:`MarginExplorer` (chapter 3): turn and shift a separator, watch the margins.
- :class:`ConvergenceExplorer` (chapter 4): mistakes against the bound ``(R/gamma)^2``.
- :class:`MessageExplorer` (chapter 5): a message, its features and the verdict.
- :class:`KernelExplorer` (chapter 6): the kernel perceptron's boundary as the kernel changes.
- :class:`MarginPerceptronExplorer` (chapter 7): the margin perceptron, and Freund and
  Schapire's bound as the target margin changes.
"""
from __future__ import annotations

from ._base import AVERAGE_COLOR, LIVE_HINT, Explorer
from .convergence import ConvergenceExplorer
from .kernel import KernelExplorer
from .margin import MarginExplorer
from .margin_perceptron import MarginPerceptronExplorer
from .message import MessageExplorer
from .offset import OffsetExplorer
from .step_trainer import StepTrainer

__all__ = [
    "AVERAGE_COLOR",
    "LIVE_HINT",
    "ConvergenceExplorer",
    "Explorer",
    "KernelExplorer",
    "MarginExplorer",
    "MarginPerceptronExplorer",
    "MessageExplorer",
    "OffsetExplorer",
    "StepTrainer",
]
