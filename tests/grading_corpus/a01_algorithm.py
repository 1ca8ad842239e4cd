"""Chapter 1 exercises: update, perceptron, predict."""

from . import Valid, Wrong

WRONG = [
    # ------------------------------------------------------------------------- update
    Wrong("update", "a strict test, < 0", '''
def update(theta, theta_0, x, y):
    if y * (np.dot(theta, x) + theta_0) < 0:
        return theta + y * x, theta_0 + y, True
    return theta.copy(), theta_0, False
''', "strict"),
    Wrong("update", "theta_0 left as it is", '''
def update(theta, theta_0, x, y):
    if y * (theta @ x + theta_0) <= 0:
        return theta + y * x, theta_0, True
    return theta.copy(), theta_0, False
''', "no offset"),
    Wrong("update", "subtracts", '''
def update(theta, theta_0, x, y):
    if y * (theta @ x + theta_0) <= 0:
        return theta - y * x, theta_0 - y, True
    return theta.copy(), theta_0, False
''', "subtracts"),
    Wrong("update", "adds x and 1, without the label", '''
def update(theta, theta_0, x, y):
    if y * (theta @ x + theta_0) <= 0:
        return theta + x, theta_0 + 1, True
    return theta.copy(), theta_0, False
''', "no label"),
    Wrong("update", "updated as 1 or 0", '''
def update(theta, theta_0, x, y):
    mistake = int(y * (theta @ x + theta_0) <= 0)
    return theta + mistake * y * x, theta_0 + mistake * y, mistake
''', "int flag"),
    Wrong("update", "the offset outside the label's product", '''
def update(theta, theta_0, x, y):
    if y * theta @ x + theta_0 <= 0:
        return theta + y * x, theta_0 + y, True
    return theta.copy(), theta_0, False
''', "offset outside"),
    Wrong("update", "theta += y * x on the caller's array", '''
def update(theta, theta_0, x, y):
    if y * (theta @ x + theta_0) <= 0:
        theta += y * x
        return theta, theta_0 + y, True
    return theta, theta_0, False
''', "changed input"),
    Wrong("update", "calls the library's update", '''
def update(theta, theta_0, x, y):
    return pl.update(theta, theta_0, x, y)
''', "library"),
    Wrong("update", "returns a dict", '''
def update(theta, theta_0, x, y):
    mistake = y * (theta @ x + theta_0) <= 0
    if mistake:
        theta, theta_0 = theta + y * x, theta_0 + y
    return {"theta": theta, "theta_0": theta_0, "updated": bool(mistake)}
''', None),
    # --------------------------------------------------------------------- perceptron
    Wrong("perceptron", "stops the epoch at the first example it gets right", '''
def perceptron(X, y, tau):
    X = np.asarray(X, dtype=float)
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        changed = False
        for i in range(len(y)):
            if y[i] * (theta @ X[i] + theta_0) <= 0:
                theta, theta_0 = theta + y[i] * X[i], theta_0 + y[i]
                mistakes += 1
                changed = True
            else:
                break
        if not changed:
            break
    return theta, theta_0, mistakes
''', None),
    Wrong("predict", "without theta_0, and >= 0", '''
def predict(X, theta, theta_0):
    return np.where(np.asarray(X, dtype=float) @ theta >= 0, 1, -1)
''', None),
    Wrong("perceptron", "a strict test", '''
def perceptron(X, y, tau):
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        changed = False
        for i in range(len(y)):
            if y[i] * (X[i] @ theta + theta_0) < 0:
                theta, theta_0 = theta + y[i] * X[i], theta_0 + y[i]
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, theta_0, mistakes
''', "strict"),
    Wrong("perceptron", "no offset", '''
def perceptron(X, y, tau):
    theta, mistakes = np.zeros(X.shape[1]), 0
    for _ in range(tau):
        changed = False
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i) <= 0:
                theta = theta + y_i * x_i
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, 0.0, mistakes
''', "no offset"),
    Wrong("perceptron", "runs until it converges", '''
def perceptron(X, y, tau):
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    changed = True
    epochs = 0
    while changed and epochs < 10_000:
        changed = False
        epochs += 1
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i + theta_0) <= 0:
                theta, theta_0 = theta + y_i * x_i, theta_0 + y_i
                mistakes += 1
                changed = True
    return theta, theta_0, mistakes
''', "ignores tau"),
    Wrong("perceptron", "tau + 1 epochs", '''
def perceptron(X, y, tau):
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    epoch = 0
    while epoch <= tau:
        epoch += 1
        changed = False
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i + theta_0) <= 0:
                theta, theta_0 = theta + y_i * x_i, theta_0 + y_i
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, theta_0, mistakes
''', "extra epoch"),
    Wrong("perceptron", "subtracts", '''
def perceptron(X, y, tau):
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        changed = False
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i + theta_0) <= 0:
                theta, theta_0 = theta - y_i * x_i, theta_0 - y_i
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, theta_0, mistakes
''', "subtracts"),
    Wrong("perceptron", "counts the last epoch's mistakes only", '''
def perceptron(X, y, tau):
    theta, theta_0 = np.zeros(X.shape[1]), 0.0
    for _ in range(tau):
        mistakes = 0
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i + theta_0) <= 0:
                theta, theta_0 = theta + y_i * x_i, theta_0 + y_i
                mistakes += 1
        if mistakes == 0:
            break
    return theta, theta_0, mistakes
''', "epoch count"),
    Wrong("perceptron", "the offset outside the label's product", '''
def perceptron(X, y, tau):
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        changed = False
        for x_i, y_i in zip(X, y):
            if y_i * theta @ x_i + theta_0 <= 0:
                theta, theta_0 = theta + y_i * x_i, theta_0 + y_i
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, theta_0, mistakes
''', "offset outside"),
    Wrong("perceptron", "never visits the last example", '''
def perceptron(X, y, tau):
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        changed = False
        for i in range(len(y) - 1):
            if y[i] * (theta @ X[i] + theta_0) <= 0:
                theta, theta_0 = theta + y[i] * X[i], theta_0 + y[i]
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, theta_0, mistakes
''', "skips last"),
    Wrong("perceptron", "calls the library's perceptron", '''
def perceptron(X, y, tau):
    run = pl.perceptron(X, y, tau=tau)
    return run.theta, run.theta_0, run.mistakes
''', "library"),
    Wrong("perceptron", "calls the library's update in its loop", '''
def perceptron(X, y, tau):
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        changed = False
        for x_i, y_i in zip(X, y):
            theta, theta_0, updated = pl.update(theta, theta_0, x_i, y_i)
            mistakes += updated
            changed = changed or updated
        if not changed:
            break
    return theta, theta_0, mistakes
''', "library"),
    Wrong("perceptron", "multiplies the rows of X by their labels in place", '''
def perceptron(X, y, tau):
    X *= y[:, None]
    theta, theta_0, mistakes = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        changed = False
        for i in range(len(y)):
            if X[i] @ theta + y[i] * theta_0 <= 0:
                theta, theta_0 = theta + X[i], theta_0 + y[i]
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, theta_0, mistakes
''', "changed input"),
    Wrong("perceptron", "returns the number of epochs as a fourth value", '''
def perceptron(X, y, tau):
    theta, theta_0, mistakes, epochs = np.zeros(X.shape[1]), 0.0, 0, 0
    for _ in range(tau):
        epochs += 1
        changed = False
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i + theta_0) <= 0:
                theta, theta_0 = theta + y_i * x_i, theta_0 + y_i
                mistakes += 1
                changed = True
        if not changed:
            break
    return theta, theta_0, mistakes, epochs
''', None),
    # ------------------------------------------------------------------------ predict
    Wrong("predict", ">= 0", '''
def predict(X, theta, theta_0):
    return np.where(X @ theta + theta_0 >= 0, 1, -1)
''', "ge"),
    Wrong("predict", "np.sign", '''
def predict(X, theta, theta_0):
    return np.sign(X @ theta + theta_0)
''', "np.sign"),
    Wrong("predict", "ignores theta_0", '''
def predict(X, theta, theta_0):
    return np.where(X @ theta > 0, 1, -1)
''', "no offset"),
    Wrong("predict", "labels 0 and 1", '''
def predict(X, theta, theta_0):
    return (X @ theta + theta_0 > 0).astype(int)
''', "zero one"),
    Wrong("predict", "True and False", '''
def predict(X, theta, theta_0):
    return X @ theta + theta_0 > 0
''', "zero one"),
    Wrong("predict", "the scores themselves", '''
def predict(X, theta, theta_0):
    return X @ theta + theta_0
''', "scores"),
    Wrong("predict", "calls the library's predict", '''
def predict(X, theta, theta_0):
    return pl.predict(X, theta, theta_0)
''', "library"),
    Wrong("predict", "theta @ X, the wrong shapes", '''
def predict(X, theta, theta_0):
    return np.where(theta @ X + theta_0 > 0, 1, -1)
''', None),
]

VALID = [
    Valid("update", "returns the given theta when nothing changes, a list of values", '''
def update(theta, theta_0, x, y):
    mistake = y * (np.dot(theta, x) + theta_0) <= 0
    if mistake:
        theta = theta + y * x
        theta_0 = theta_0 + y
    return [theta, float(theta_0), bool(mistake)]
'''),
    Valid("update", "numpy's bool from the comparison, an in-place update of a copy", '''
def update(theta, theta_0, x, y):
    theta = np.array(theta, dtype=float)
    updated = y * (theta @ x + theta_0) <= 0
    if updated:
        theta += y * x
        theta_0 += y
    return theta, theta_0, updated
'''),
    Valid("perceptron", "always tau epochs (later epochs change nothing), in place on its "
          "own theta", '''
def perceptron(X, y, tau):
    theta = np.zeros(X.shape[1])
    theta_0 = 0.0
    mistakes = 0
    for _ in range(tau):
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i + theta_0) <= 0:
                theta += y_i * x_i
                theta_0 += y_i
                mistakes += 1
    return theta, theta_0, mistakes
'''),
    Valid("predict", "np.sign, with the boundary set to -1 and floats", '''
def predict(X, theta, theta_0):
    labels = np.sign(np.dot(X, theta) + theta_0)
    labels[labels == 0] = -1
    return labels.astype(float)
'''),
]

# The right numbers in a type the exercise does not ask for (a list for an array, a
# float for a count): each fails with the hint that says what to return.
WRONG += [
    Wrong("perceptron", "its own update, an epoch counter, counts as floats", '''
def _step(theta, theta_0, x, y):
    if y * (x @ theta + theta_0) <= 0:
        return theta + y * x, theta_0 + y, 1.0
    return theta, theta_0, 0.0

def perceptron(X, y, tau):
    theta, theta_0, mistakes, epoch = np.zeros(len(X[0])), 0.0, 0.0, 0
    while epoch < tau:
        epoch += 1
        before = mistakes
        for i in range(len(X)):
            theta, theta_0, m = _step(theta, theta_0, X[i], y[i])
            mistakes += m
        if mistakes == before:
            break
    return theta, theta_0, mistakes
''', "type"),
    Wrong("predict", "a loop and a list", '''
def predict(X, theta, theta_0):
    labels = []
    for row in X:
        score = sum(a * b for a, b in zip(row, theta)) + theta_0
        labels.append(1 if score > 0 else -1)
    return labels
''', "type"),
    Wrong("update", "plain Python lists and a loop", '''
def update(theta, theta_0, x, y):
    score = sum(t * v for t, v in zip(theta, x)) + theta_0
    if y * score <= 0:
        return [t + y * v for t, v in zip(theta, x)], theta_0 + y, True
    return list(theta), theta_0, False
''', "type"),
]
