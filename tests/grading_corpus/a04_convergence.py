"""Chapter 4 exercises: radius, mistake_bound, lemma_quantities."""

from . import Valid, Wrong

WRONG = [
    # ------------------------------------------------------------------------ radius
    Wrong("radius", "the largest squared norm", '''
def radius(X):
    return float(np.max(np.sum(X ** 2, axis=1)))
''', "squared"),
    Wrong("radius", "the mean norm", '''
def radius(X):
    return float(np.mean(np.linalg.norm(X, axis=1)))
''', "mean"),
    Wrong("radius", "the largest coordinate", '''
def radius(X):
    return float(np.abs(X).max())
''', "coordinate"),
    Wrong("radius", "the norms of the columns", '''
def radius(X):
    return float(np.linalg.norm(X, axis=0).max())
''', "columns"),
    Wrong("radius", "the norm of the whole matrix", '''
def radius(X):
    return float(np.linalg.norm(X))
''', "whole"),
    Wrong("radius", "centred first", '''
def radius(X):
    return float(np.max(np.linalg.norm(X - X.mean(axis=0), axis=1)))
''', "centred"),
    Wrong("radius", "an array of one element", '''
def radius(X):
    return np.max(np.linalg.norm(X, axis=1, keepdims=True), axis=0)
''', "one element"),
    Wrong("radius", "calls the library's radius", '''
def radius(X):
    return pl.radius(X)
''', "library"),
    Wrong("radius", "squares X in place", '''
def radius(X):
    X **= 2
    return float(np.sqrt(X.sum(axis=1).max()))
''', "changed input"),
    # ----------------------------------------------------------------- mistake_bound
    Wrong("mistake_bound", "the ratio, not squared", '''
def mistake_bound(R, gamma):
    return R / gamma
''', "ratio"),
    Wrong("mistake_bound", "the bound with an offset", '''
def mistake_bound(R, gamma):
    return (2 * R / gamma) ** 2
''', "offset bound"),
    Wrong("mistake_bound", "floor division", '''
def mistake_bound(R, gamma):
    return float((R // gamma) ** 2)
''', "floor division"),
    Wrong("mistake_bound", "rounded up with math.ceil", '''
def mistake_bound(R, gamma):
    return math.ceil((R / gamma) ** 2)
''', "ceil"),
    Wrong("mistake_bound", "int(), rounding down", '''
def mistake_bound(R, gamma):
    return int((R / gamma) ** 2)
''', "floor"),
    Wrong("mistake_bound", "round()", '''
def mistake_bound(R, gamma):
    return round(R ** 2 / gamma ** 2)
''', "round"),
    Wrong("mistake_bound", "gamma not squared", '''
def mistake_bound(R, gamma):
    return R ** 2 / gamma
''', "gamma not squared"),
    Wrong("mistake_bound", "R not squared", '''
def mistake_bound(R, gamma):
    return R / gamma ** 2
''', "R not squared"),
    Wrong("mistake_bound", "calls the library's mistake_bound", '''
def mistake_bound(R, gamma):
    return pl.mistake_bound(R, gamma)
''', "library"),
    # -------------------------------------------------------------- lemma_quantities
    Wrong("lemma_quantities", "the unit vector divided in place, in theta_star's dtype", '''
def lemma_quantities(thetas, theta_star):
    unit = theta_star.copy()
    unit /= np.linalg.norm(theta_star)
    return thetas @ unit, np.sum(thetas * thetas, axis=1)
''', "integers"),
    Wrong("lemma_quantities", "not divided by the norm of theta_star", '''
def lemma_quantities(thetas, theta_star):
    return thetas @ theta_star, np.sum(thetas ** 2, axis=1)
''', "unnormalised"),
    Wrong("lemma_quantities", "norms, not squared", '''
def lemma_quantities(thetas, theta_star):
    return thetas @ theta_star / np.linalg.norm(theta_star), np.linalg.norm(thetas, axis=1)
''', "norms"),
    Wrong("lemma_quantities", "divided by the squared norm of theta_star", '''
def lemma_quantities(thetas, theta_star):
    return thetas @ theta_star / (theta_star @ theta_star), (thetas ** 2).sum(axis=1)
''', "squared star"),
    Wrong("lemma_quantities", "the two in the wrong order", '''
def lemma_quantities(thetas, theta_star):
    return np.sum(thetas ** 2, axis=1), thetas @ theta_star / np.linalg.norm(theta_star)
''', "swapped"),
    Wrong("lemma_quantities", "one sum over all entries", '''
def lemma_quantities(thetas, theta_star):
    return thetas @ theta_star / np.linalg.norm(theta_star), float(np.sum(thetas ** 2))
''', "total"),
    Wrong("lemma_quantities", "normalises theta_star in place", '''
def lemma_quantities(thetas, theta_star):
    theta_star /= np.linalg.norm(theta_star)
    return thetas @ theta_star, np.sum(thetas ** 2, axis=1)
''', "changed input"),
    Wrong("lemma_quantities", "sums the squares down the columns", '''
def lemma_quantities(thetas, theta_star):
    return thetas @ theta_star / np.linalg.norm(theta_star), np.sum(thetas ** 2, axis=0)
''', None),
]

VALID = [
    Valid("lemma_quantities", "a loop into lists, then arrays", '''
def lemma_quantities(thetas, theta_star):
    unit = theta_star / np.linalg.norm(theta_star)
    alignment, norm_sq = [], []
    for theta in thetas:
        alignment.append(theta @ unit)
        norm_sq.append(theta @ theta)
    return np.array(alignment), np.array(norm_sq)
'''),
    Valid("radius", "a loop with math.sqrt", '''
def radius(X):
    best = 0.0
    for row in X:
        best = max(best, math.sqrt(sum(v * v for v in row)))
    return best
'''),
    Valid("radius", "the square root of the largest squared norm", '''
def radius(X):
    return np.sqrt(np.max(np.einsum("ij,ij->i", X, X)))
'''),
    Valid("mistake_bound", "R ** 2 / gamma ** 2", '''
def mistake_bound(R, gamma):
    return R ** 2 / gamma ** 2
'''),
]

# The right numbers in a type the exercise does not ask for (a list for an array, a
# float for a count): each fails with the hint that says what to return.
WRONG += [
    Wrong("lemma_quantities", "a loop, lists", '''
def lemma_quantities(thetas, theta_star):
    unit = theta_star / np.linalg.norm(theta_star)
    alignment, norm_sq = [], []
    for theta in thetas:
        alignment.append(float(theta @ unit))
        norm_sq.append(float(theta @ theta))
    return alignment, norm_sq
''', "type"),
]
