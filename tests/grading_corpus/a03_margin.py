"""Chapter 3 exercises: signed_distance, point_margins, margin."""

from . import Valid, Wrong

WRONG = [
    # ----------------------------------------------------------------- signed_distance
    Wrong("signed_distance", "right, but computed in float32", '''
def signed_distance(X, theta, theta_0):
    X32, theta32 = X.astype(np.float32), theta.astype(np.float32)
    return (X32 @ theta32 + np.float32(theta_0)) / np.linalg.norm(theta32)
''', "single"),
    Wrong("signed_distance", "divided by the L1 norm of theta", '''
def signed_distance(X, theta, theta_0):
    return (X @ theta + theta_0) / np.sum(np.abs(theta))
''', None),
    Wrong("signed_distance", "the offset added after the division, by the squared norm", '''
def signed_distance(X, theta, theta_0):
    return X @ theta / np.dot(theta, theta) + theta_0
''', None),
    Wrong("signed_distance", "the score, not divided", '''
def signed_distance(X, theta, theta_0):
    return X @ theta + theta_0
''', "score"),
    Wrong("signed_distance", "divided by the squared norm", '''
def signed_distance(X, theta, theta_0):
    return (X @ theta + theta_0) / np.dot(theta, theta)
''', "squared norm"),
    Wrong("signed_distance", "ignores theta_0", '''
def signed_distance(X, theta, theta_0):
    return X @ theta / np.linalg.norm(theta)
''', "no offset"),
    Wrong("signed_distance", "an absolute value", '''
def signed_distance(X, theta, theta_0):
    return np.abs(X @ theta + theta_0) / np.linalg.norm(theta)
''', "abs"),
    Wrong("signed_distance", "divides theta_0 only", '''
def signed_distance(X, theta, theta_0):
    return X @ theta + theta_0 / np.linalg.norm(theta)
''', "offset undivided"),
    Wrong("signed_distance", "divided by the norm of (theta, theta_0)", '''
def signed_distance(X, theta, theta_0):
    return (X @ theta + theta_0) / np.sqrt(np.sum(theta ** 2) + theta_0 ** 2)
''', "lifted norm"),
    Wrong("signed_distance", "calls the library's signed_distance", '''
def signed_distance(X, theta, theta_0):
    return pl.signed_distance(X, theta, theta_0)
''', "library"),
    Wrong("signed_distance", "normalises theta in place", '''
def signed_distance(X, theta, theta_0):
    norm = np.linalg.norm(theta)
    theta /= norm
    return X @ theta + theta_0 / norm
''', "changed input"),
    # ------------------------------------------------------------------ point_margins
    Wrong("point_margins", "forgets the labels", '''
def point_margins(X, y, theta, theta_0):
    return (X @ theta + theta_0) / np.linalg.norm(theta)
''', "no label"),
    Wrong("point_margins", "an absolute value", '''
def point_margins(X, y, theta, theta_0):
    return np.abs(y * (X @ theta + theta_0)) / np.linalg.norm(theta)
''', "abs"),
    Wrong("point_margins", "the functional margin", '''
def point_margins(X, y, theta, theta_0):
    return y * (X @ theta + theta_0)
''', "functional"),
    Wrong("point_margins", "ignores theta_0", '''
def point_margins(X, y, theta, theta_0):
    return y * (X @ theta) / np.linalg.norm(theta)
''', "no offset"),
    Wrong("point_margins", "the offset outside the label's product", '''
def point_margins(X, y, theta, theta_0):
    return (y * (X @ theta) + theta_0) / np.linalg.norm(theta)
''', "offset outside"),
    Wrong("point_margins", "calls the library's point_margins", '''
def point_margins(X, y, theta, theta_0):
    return pl.point_margins(X, y, theta, theta_0)
''', "library"),
    Wrong("point_margins", "multiplies the labels into X in place", '''
def point_margins(X, y, theta, theta_0):
    X *= y[:, None]
    return (X @ theta + y * theta_0) / np.linalg.norm(theta)
''', "changed input"),
    # ------------------------------------------------------------------------ margin
    Wrong("margin", "the largest margin", '''
def margin(X, y, theta, theta_0):
    return float(np.max(y * (X @ theta + theta_0)) / np.linalg.norm(theta))
''', "max"),
    Wrong("margin", "the smallest distance", '''
def margin(X, y, theta, theta_0):
    return float(np.min(np.abs(X @ theta + theta_0)) / np.linalg.norm(theta))
''', "distance"),
    Wrong("margin", "the smallest signed distance, labels left out", '''
def margin(X, y, theta, theta_0):
    return float(min((X @ theta + theta_0) / np.linalg.norm(theta)))
''', "no label"),
    Wrong("margin", "the functional margin", '''
def margin(X, y, theta, theta_0):
    return float(np.min(y * (X @ theta + theta_0)))
''', "functional"),
    Wrong("margin", "ignores theta_0", '''
def margin(X, y, theta, theta_0):
    return float(np.min(y * (X @ theta)) / np.linalg.norm(theta))
''', "no offset"),
    Wrong("margin", "an array of one element", '''
def margin(X, y, theta, theta_0):
    margins = y * (X @ theta + theta_0) / np.linalg.norm(theta)
    return np.sort(margins)[:1]
''', "one element"),
    Wrong("margin", "calls the library's margin", '''
def margin(X, y, theta, theta_0):
    return pl.margin(X, y, theta, theta_0)
''', "library"),
    Wrong("margin", "calls the library's point_margins", '''
def margin(X, y, theta, theta_0):
    return float(pl.point_margins(X, y, theta, theta_0).min())
''', "library"),
    Wrong("margin", "every point's margin, not the smallest", '''
def margin(X, y, theta, theta_0):
    return y * (X @ theta + theta_0) / np.linalg.norm(theta)
''', None),
    # On the worked example the mean margin is the smallest distance, sqrt(2)/2: that
    # one case is no reason to speak of distances.
    Wrong("margin", "the mean of the margins", '''
def margin(X, y, theta, theta_0):
    return float(np.mean(y * (X @ theta + theta_0)) / np.linalg.norm(theta))
''', None),
]

VALID = [
    Valid("signed_distance", "theta normalised on a copy", '''
def signed_distance(X, theta, theta_0):
    norm = np.sqrt(theta @ theta)
    unit = theta / norm
    return np.dot(X, unit) + theta_0 / norm
'''),
    Valid("point_margins", "its own distances, then the labels", '''
def point_margins(X, y, theta, theta_0):
    out = np.empty(len(y))
    for i in range(len(y)):
        out[i] = y[i] * (X[i] @ theta + theta_0) / np.linalg.norm(theta)
    return out
'''),
    Valid("margin", "min over a generator, numpy's float", '''
def margin(X, y, theta, theta_0):
    norm = np.linalg.norm(theta)
    return min(y_i * (x_i @ theta + theta_0) / norm for x_i, y_i in zip(X, y))
'''),
]

# The right numbers in a type the exercise does not ask for (a list for an array, a
# float for a count): each fails with the hint that says what to return.
WRONG += [
    Wrong("signed_distance", "a loop with math.sqrt, a list", '''
def signed_distance(X, theta, theta_0):
    norm = math.sqrt(sum(t * t for t in theta))
    return [(sum(a * t for a, t in zip(row, theta)) + theta_0) / norm for row in X]
''', "type"),
]
