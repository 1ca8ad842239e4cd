"""Chapter 2 exercises: add_offset_feature, perceptron_through_origin, lifted_to_offset."""

from . import Valid, Wrong

WRONG = [
    # ------------------------------------------------------------- add_offset_feature
    Wrong("add_offset_feature", "a new array of X's own dtype", '''
def add_offset_feature(X, value=1.0):
    out = np.zeros((X.shape[0], X.shape[1] + 1), dtype=X.dtype)
    out[:, :-1] = X
    out[:, -1] = value
    return out
''', "keeps dtype"),
    Wrong("add_offset_feature", "the constant as the first column", '''
def add_offset_feature(X, value=1.0):
    return np.column_stack([np.full(len(X), value), X])
''', "first column"),
    Wrong("add_offset_feature", "always 1", '''
def add_offset_feature(X, value=1.0):
    return np.hstack([X, np.ones((X.shape[0], 1))])
''', "ones"),
    Wrong("add_offset_feature", "a row instead of a column", '''
def add_offset_feature(X, value=1.0):
    return np.vstack([X, np.full((1, X.shape[1]), value)])
''', "row"),
    Wrong("add_offset_feature", "np.append without an axis", '''
def add_offset_feature(X, value=1.0):
    return np.append(X, value)
''', None),
    Wrong("add_offset_feature", "calls the library's add_offset_feature", '''
def add_offset_feature(X, value=1.0):
    return pl.add_offset_feature(X, value)
''', "library"),
    # ------------------------------------------------------ perceptron_through_origin
    Wrong("perceptron_through_origin", "a strict test", '''
def perceptron_through_origin(X, y, tau):
    theta, mistakes = np.zeros(X.shape[1]), 0
    for _ in range(tau):
        changed = False
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i) < 0:
                theta = theta + y_i * x_i
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, mistakes
''', "strict"),
    Wrong("perceptron_through_origin", "until it converges", '''
def perceptron_through_origin(X, y, tau):
    theta, mistakes = np.zeros(X.shape[1]), 0
    for _ in range(10_000):
        changed = False
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i) <= 0:
                theta = theta + y_i * x_i
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, mistakes
''', "ignores tau"),
    Wrong("perceptron_through_origin", "range(tau + 1)", '''
def perceptron_through_origin(X, y, tau):
    theta, mistakes = np.zeros(X.shape[1]), 0
    for _ in range(tau + 1):
        changed = False
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i) <= 0:
                theta = theta + y_i * x_i
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, mistakes
''', "extra epoch"),
    Wrong("perceptron_through_origin", "subtracts", '''
def perceptron_through_origin(X, y, tau):
    theta, mistakes = np.zeros(X.shape[1]), 0
    for _ in range(tau):
        changed = False
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i) <= 0:
                theta = theta - y_i * x_i
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, mistakes
''', "subtracts"),
    Wrong("perceptron_through_origin", "the last epoch's count", '''
def perceptron_through_origin(X, y, tau):
    theta = np.zeros(X.shape[1])
    for _ in range(tau):
        mistakes = 0
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i) <= 0:
                theta = theta + y_i * x_i
                mistakes += 1
        if mistakes == 0:
            break
    return theta, mistakes
''', "epoch count"),
    Wrong("perceptron_through_origin", "keeps an offset", '''
def perceptron_through_origin(X, y, tau):
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        changed = False
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i + theta_0) <= 0:
                theta, theta_0 = theta + y_i * x_i, theta_0 + y_i
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, mistakes
''', "with offset"),
    Wrong("perceptron_through_origin", "calls the library's version", '''
def perceptron_through_origin(X, y, tau):
    run = pl.perceptron_through_origin(X, y, tau=tau)
    return run.theta, run.mistakes
''', "library"),
    Wrong("perceptron_through_origin", "the library's perceptron with theta_0 dropped", '''
def perceptron_through_origin(X, y, tau):
    run = pl.perceptron(X, y, tau=tau)
    return run.theta, run.mistakes
''', "library"),
    # ---------------------------------------------------------------- lifted_to_offset
    Wrong("lifted_to_offset", "the last entry as it is", '''
def lifted_to_offset(theta_new, value):
    return theta_new[:-1], float(theta_new[-1])
''', "not multiplied"),
    Wrong("lifted_to_offset", "divides", '''
def lifted_to_offset(theta_new, value):
    return theta_new[:-1], theta_new[-1] / value
''', "divides"),
    Wrong("lifted_to_offset", "scales theta too", '''
def lifted_to_offset(theta_new, value):
    return value * theta_new[:-1], value * theta_new[-1]
''', "theta scaled"),
    Wrong("lifted_to_offset", "the offset from the first entry", '''
def lifted_to_offset(theta_new, value):
    return theta_new[1:], float(value * theta_new[0])
''', "first entry"),
    Wrong("lifted_to_offset", "theta_0 as an array of one element", '''
def lifted_to_offset(theta_new, value):
    return theta_new[:-1], value * theta_new[-1:]
''', "one element"),
    Wrong("lifted_to_offset", "keeps every entry in theta", '''
def lifted_to_offset(theta_new, value):
    return theta_new.copy(), float(value * theta_new[-1])
''', None),
]

VALID = [
    Valid("add_offset_feature", "np.c_ and np.ones times value", '''
def add_offset_feature(X, value=1.0):
    return np.c_[X, value * np.ones(len(X))]
'''),
    Valid("perceptron_through_origin", "a while loop on the epochs", '''
def perceptron_through_origin(X, y, tau):
    theta = np.zeros(np.shape(X)[1])
    mistakes, epoch, clean = 0, 0, False
    while epoch < tau and not clean:
        clean = True
        for i in range(len(y)):
            if y[i] * np.dot(theta, X[i]) <= 0:
                theta = theta + y[i] * X[i]
                mistakes += 1
                clean = False
        epoch += 1
    return theta, mistakes
'''),
    Valid("lifted_to_offset", "unpacking into an array and numpy's float, as a list", '''
def lifted_to_offset(theta_new, value):
    *theta, last = theta_new
    return [np.array(theta), np.float64(last * value)]
'''),
]

# The right numbers in a type the exercise does not ask for (a list for an array, a
# float for a count): each fails with the hint that says what to return.
WRONG += [
    Wrong("add_offset_feature", "a list of lists", '''
def add_offset_feature(X, value=1.0):
    return [list(row) + [value] for row in X]
''', "type"),
    Wrong("lifted_to_offset", "a list and numpy's float", '''
def lifted_to_offset(theta_new, value):
    *theta, last = theta_new
    return theta, np.float64(last * value)
''', "type"),
]
