"""Chapter 6 exercises: averaged_perceptron, voted_predict, one_vs_all_predict,
polynomial_gram, kernel_perceptron."""

from . import Valid, Wrong

VISIT = "            total, total_0, visits = total + theta, total_0 + theta_0, visits + 1\n"
STOP = "        if not changed:\n            break\n"


def averaged(*, test="<= 0", before="", after=VISIT, epoch_end="", start="0",
             epochs="range(tau)", stop=STOP, result="total / visits, total_0 / visits"):
    """An averaged perceptron in a student's words, with the parts a mistake changes
    (each part a whole line, with its indentation)."""
    return (
        "def averaged_perceptron(X, y, tau):\n"
        "    n, d = X.shape\n"
        "    theta, theta_0 = np.zeros(d), 0.0\n"
        f"    total, total_0, visits = np.zeros(d), 0.0, {start}\n"
        f"    for _ in {epochs}:\n"
        "        changed = False\n"
        "        for i in range(n):\n"
        f"{before}"
        f"            if y[i] * (theta @ X[i] + theta_0) {test}:\n"
        "                theta, theta_0, changed = theta + y[i] * X[i], theta_0 + y[i], True\n"
        f"{after}{epoch_end}{stop}"
        f"    return {result}\n")


WRONG = [
    # ------------------------------------------------------------ averaged_perceptron
    Wrong("averaged_perceptron", "rebuilt from pl.voted_perceptron's hypotheses and counts",
          '''
def averaged_perceptron(X, y, tau):
    run = pl.voted_perceptron(X, y, tau=tau)
    counts = np.asarray(run.counts, dtype=float)
    return (counts @ np.asarray(run.thetas)) / counts.sum(), float(
        counts @ np.asarray(run.theta_0s) / counts.sum())
''', "library"),
    Wrong("averaged_perceptron", "a strict test", averaged(test="< 0", result=(
        "(total / visits, total_0 / visits) if visits else (theta, theta_0)")), "strict"),
    Wrong("averaged_perceptron", "the last hypothesis", averaged(result="theta, theta_0"),
          "last"),
    Wrong("averaged_perceptron", "adds only after updates", '''
def averaged_perceptron(X, y, tau):
    theta, theta_0 = np.zeros(X.shape[1]), 0.0
    total, total_0, count = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        changed = False
        for x_i, y_i in zip(X, y):
            if y_i * (theta @ x_i + theta_0) <= 0:
                theta, theta_0, changed = theta + y_i * x_i, theta_0 + y_i, True
                total, total_0, count = total + theta, total_0 + theta_0, count + 1
        if not changed:
            break
    return total / count, total_0 / count
''', "updates only"),
    Wrong("averaged_perceptron", "adds once per epoch", averaged(
        after="", epoch_end=VISIT[4:]), "per epoch"),
    Wrong("averaged_perceptron", "adds before the visit", averaged(before=VISIT, after=""),
          "before"),
    Wrong("averaged_perceptron", "counts the starting hypothesis", averaged(start="1"),
          "with start"),
    Wrong("averaged_perceptron", "divides by n * tau", averaged(
        result="total / (n * tau), total_0 / (n * tau)"), "n tau"),
    Wrong("averaged_perceptron", "no early stop", averaged(stop=""), "no early stop"),
    Wrong("averaged_perceptron", "tau + 1 epochs", averaged(epochs="range(tau + 1)"),
          "extra epoch"),
    Wrong("averaged_perceptron", "calls the library's averaged_perceptron", '''
def averaged_perceptron(X, y, tau):
    run = pl.averaged_perceptron(X, y, tau)
    return run.theta, run.theta_0
''', "library"),
    # ------------------------------------------------------------------ voted_predict
    Wrong("voted_predict", "one vote per hypothesis", '''
def voted_predict(X, thetas, theta_0s, counts):
    votes = np.where(X @ thetas.T + theta_0s > 0, 1, -1)
    return np.where(votes.sum(axis=1) > 0, 1, -1)
''', "unweighted"),
    Wrong("voted_predict", "votes with the scores", '''
def voted_predict(X, thetas, theta_0s, counts):
    return np.where((X @ thetas.T + theta_0s) @ counts > 0, 1, -1)
''', "score votes"),
    Wrong("voted_predict", "np.sign for the votes", '''
def voted_predict(X, thetas, theta_0s, counts):
    votes = np.sign(X @ thetas.T + theta_0s)
    return np.where(votes @ counts > 0, 1, -1)
''', "np.sign votes"),
    Wrong("voted_predict", "np.sign for the result", '''
def voted_predict(X, thetas, theta_0s, counts):
    votes = np.where(X @ thetas.T + theta_0s > 0, 1, -1)
    return np.sign(votes @ counts)
''', "np.sign total"),
    Wrong("voted_predict", ">= 0 for the result", '''
def voted_predict(X, thetas, theta_0s, counts):
    votes = np.where(X @ thetas.T + theta_0s > 0, 1, -1)
    return np.where(votes @ counts >= 0, 1, -1)
''', "ge total"),
    Wrong("voted_predict", "ignores the offsets", '''
def voted_predict(X, thetas, theta_0s, counts):
    votes = np.where(X @ thetas.T > 0, 1, -1)
    return np.where(votes @ counts > 0, 1, -1)
''', "no offset"),
    Wrong("voted_predict", "calls the library's voted_predict", '''
def voted_predict(X, thetas, theta_0s, counts):
    model = pl.VotedResult(thetas, theta_0s, counts, 0, 0, True)
    return pl.voted_predict(model, X)
''', "library"),
    # ------------------------------------------------------------- one_vs_all_predict
    Wrong("one_vs_all_predict", "the highest score's index mapped through the sorted classes",
          '''
def one_vs_all_predict(X, thetas, theta_0s, classes):
    scores = np.asarray(X, dtype=float) @ np.asarray(thetas, dtype=float).T + theta_0s
    return np.sort(np.asarray(classes))[np.argmax(scores, axis=1)]
''', None),
    Wrong("one_vs_all_predict", "argmin", '''
def one_vs_all_predict(X, thetas, theta_0s, classes):
    return classes[np.argmin(X @ thetas.T + theta_0s, axis=1)]
''', "argmin"),
    Wrong("one_vs_all_predict", "the index, not the class", '''
def one_vs_all_predict(X, thetas, theta_0s, classes):
    return np.argmax(X @ thetas.T + theta_0s, axis=1)
''', "index"),
    Wrong("one_vs_all_predict", "the last class on a tie", '''
def one_vs_all_predict(X, thetas, theta_0s, classes):
    scores = X @ thetas.T + theta_0s
    out = []
    for row in scores:
        best = 0
        for c in range(len(row)):
            if row[c] >= row[best]:
                best = c
        out.append(classes[best])
    return np.array(out)
''', "last max"),
    Wrong("one_vs_all_predict", "ignores the offsets", '''
def one_vs_all_predict(X, thetas, theta_0s, classes):
    return classes[np.argmax(X @ thetas.T, axis=1)]
''', "no offset"),
    Wrong("one_vs_all_predict", "each score divided by the norm of its theta", '''
def one_vs_all_predict(X, thetas, theta_0s, classes):
    scores = (X @ thetas.T + theta_0s) / np.linalg.norm(thetas, axis=1)
    return classes[np.argmax(scores, axis=1)]
''', "normalised"),
    Wrong("one_vs_all_predict", "the first class whose perceptron says +1", '''
def one_vs_all_predict(X, thetas, theta_0s, classes):
    claims = X @ thetas.T + theta_0s > 0
    return classes[np.argmax(claims, axis=1)]
''', "first positive"),
    Wrong("one_vs_all_predict", "calls the library's one_vs_all_predict", '''
def one_vs_all_predict(X, thetas, theta_0s, classes):
    model = pl.OneVsAllResult(classes, thetas, theta_0s, np.ones(len(classes), dtype=bool))
    return pl.one_vs_all_predict(model, X)
''', "library"),
    # ---------------------------------------------------------------- polynomial_gram
    Wrong("polynomial_gram", "coef0 after the power", '''
def polynomial_gram(A, B, degree, coef0):
    return (A @ B.T) ** degree + coef0
''', "coef0 after"),
    Wrong("polynomial_gram", "B against A", '''
def polynomial_gram(A, B, degree, coef0):
    return (B @ A.T + coef0) ** degree
''', "transposed"),
    Wrong("polynomial_gram", "times the degree", '''
def polynomial_gram(A, B, degree, coef0):
    return degree * (A @ B.T + coef0)
''', "times degree"),
    Wrong("polynomial_gram", "no coef0", '''
def polynomial_gram(A, B, degree, coef0):
    return np.power(A @ B.T, degree)
''', "no coef0"),
    Wrong("polynomial_gram", "calls the library's polynomial_kernel", '''
def polynomial_gram(A, B, degree, coef0):
    return pl.polynomial_kernel(degree, coef0)(A, B)
''', "library"),
    Wrong("polynomial_gram", "element-wise products", '''
def polynomial_gram(A, B, degree, coef0):
    return (A * B + coef0) ** degree
''', None),
    # -------------------------------------------------------------- kernel_perceptron
    Wrong("kernel_perceptron", "a strict test", '''
def kernel_perceptron(G, y, tau):
    alpha, theta_0 = np.zeros(len(y)), 0.0
    for _ in range(tau):
        changed = False
        for i in range(len(y)):
            if y[i] * ((alpha * y) @ G[:, i] + theta_0) < 0:
                alpha[i] += 1
                theta_0 += y[i]
                changed = True
        if not changed:
            break
    return alpha, theta_0
''', "strict"),
    Wrong("kernel_perceptron", "theta_0 never updated", '''
def kernel_perceptron(G, y, tau):
    alpha, theta_0 = np.zeros(len(y)), 0.0
    for _ in range(tau):
        changed = False
        for i in range(len(y)):
            if y[i] * ((alpha * y) @ G[:, i] + theta_0) <= 0:
                alpha[i] += 1
                changed = True
        if not changed:
            break
    return alpha, theta_0
''', "no offset"),
    Wrong("kernel_perceptron", "theta_0 updated but left out of the score", '''
def kernel_perceptron(G, y, tau):
    alpha, theta_0 = np.zeros(len(y)), 0.0
    for _ in range(tau):
        changed = False
        for i in range(len(y)):
            if y[i] * ((alpha * y) @ G[:, i]) <= 0:
                alpha[i] += 1
                theta_0 += y[i]
                changed = True
        if not changed:
            break
    return alpha, theta_0
''', "offset not scored"),
    Wrong("kernel_perceptron", "runs until it converges", '''
def kernel_perceptron(G, y, tau):
    alpha, theta_0 = np.zeros(len(y)), 0.0
    changed, epochs = True, 0
    while changed and epochs < 10_000:
        changed, epochs = False, epochs + 1
        for i in range(len(y)):
            if y[i] * ((alpha * y) @ G[:, i] + theta_0) <= 0:
                alpha[i] += 1
                theta_0 += y[i]
                changed = True
    return alpha, theta_0
''', "ignores tau"),
    Wrong("kernel_perceptron", "tau + 1 epochs", '''
def kernel_perceptron(G, y, tau):
    alpha, theta_0 = np.zeros(len(y)), 0.0
    for _ in range(tau + 1):
        changed = False
        for i in range(len(y)):
            if y[i] * ((alpha * y) @ G[:, i] + theta_0) <= 0:
                alpha[i] += 1
                theta_0 += y[i]
                changed = True
        if not changed:
            break
    return alpha, theta_0
''', "extra epoch"),
    Wrong("kernel_perceptron", "the labels left out of the score", '''
def kernel_perceptron(G, y, tau):
    alpha, theta_0 = np.zeros(len(y)), 0.0
    for _ in range(tau):
        changed = False
        for i in range(len(y)):
            if y[i] * (alpha @ G[:, i] + theta_0) <= 0:
                alpha[i] += 1
                theta_0 += y[i]
                changed = True
        if not changed:
            break
    return alpha, theta_0
''', "no labels"),
    Wrong("kernel_perceptron", "alpha_i + y_i", '''
def kernel_perceptron(G, y, tau):
    alpha, theta_0 = np.zeros(len(y)), 0.0
    for _ in range(tau):
        changed = False
        for i in range(len(y)):
            if y[i] * (alpha @ G[:, i] + theta_0) <= 0:
                alpha[i] += y[i]
                theta_0 += y[i]
                changed = True
        if not changed:
            break
    return alpha, theta_0
''', "signed"),
    Wrong("kernel_perceptron", "an epoch's scores computed once, at its start", '''
def kernel_perceptron(G, y, tau):
    alpha, theta_0 = np.zeros(len(y)), 0.0
    for _ in range(tau):
        scores = (alpha * y) @ G + theta_0
        mistakes = np.flatnonzero(y * scores <= 0)
        if len(mistakes) == 0:
            break
        for i in mistakes:
            alpha[i] += 1
            theta_0 += y[i]
    return alpha, theta_0
''', "stale scores"),
    Wrong("kernel_perceptron", "multiplies the labels into G in place", '''
def kernel_perceptron(G, y, tau):
    G *= np.outer(y, y)
    alpha, theta_0 = np.zeros(len(y)), 0.0
    for _ in range(tau):
        changed = False
        for i in range(len(y)):
            if alpha @ G[:, i] + y[i] * theta_0 <= 0:
                alpha[i] += 1
                theta_0 += y[i]
                changed = True
        if not changed:
            break
    return alpha, theta_0
''', "changed input"),
    Wrong("kernel_perceptron", "calls the library's kernel_perceptron", '''
def kernel_perceptron(G, y, tau):
    n = len(y)
    index = np.arange(n, dtype=float)[:, None]
    lookup = lambda A, B: G[np.ix_(A[:, 0].astype(int), B[:, 0].astype(int))]
    run = pl.kernel_perceptron(index, y, lookup, tau)
    return run.alpha, run.theta_0
''', "library"),
]

VALID = [
    Valid("voted_predict", "loops over points and hypotheses into an integer array", '''
def voted_predict(X, thetas, theta_0s, counts):
    labels = np.empty(len(X), dtype=int)
    for i, x in enumerate(X):
        total = 0
        for theta, theta_0, c in zip(thetas, theta_0s, counts):
            total += c * (1 if theta @ x + theta_0 > 0 else -1)
        labels[i] = 1 if total > 0 else -1
    return labels
'''),
    Valid("averaged_perceptron", "running sums over a flat loop of visits", '''
def averaged_perceptron(X, y, tau):
    n = len(y)
    theta, theta_0 = np.zeros(X.shape[1]), 0.0
    sums, sum_0, visits = np.zeros(X.shape[1]), 0.0, 0
    clean_run = 0
    for visit in range(n * tau):
        i = visit % n
        if i == 0:
            clean_run = 0
        if y[i] * (np.dot(theta, X[i]) + theta_0) <= 0:
            theta = theta + y[i] * X[i]
            theta_0 += y[i]
        else:
            clean_run += 1
        sums += theta
        sum_0 += theta_0
        visits += 1
        if clean_run == n:
            break
    return sums / visits, sum_0 / visits
'''),
    Valid("averaged_perceptron", "each hypothesis weighted by how long it survived", '''
def averaged_perceptron(X, y, tau):
    theta, theta_0, age = np.zeros(X.shape[1]), 0.0, 0
    total, total_0, visits = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        changed = False
        for x_i, y_i in zip(X, y):
            visits += 1
            if y_i * (x_i @ theta + theta_0) <= 0:
                total, total_0 = total + age * theta, total_0 + age * theta_0
                theta, theta_0, age, changed = theta + y_i * x_i, theta_0 + y_i, 1, True
            else:
                age += 1
        if not changed:
            break
    total, total_0 = total + age * theta, total_0 + age * theta_0
    return total / visits, total_0 / visits
'''),
    Valid("one_vs_all_predict", "a loop keeping the first best score", '''
def one_vs_all_predict(X, thetas, theta_0s, classes):
    out = []
    for x in X:
        best, best_score = None, -np.inf
        for c, theta, theta_0 in zip(classes, thetas, theta_0s):
            s = theta @ x + theta_0
            if s > best_score:
                best, best_score = c, s
        out.append(best)
    return np.array(out)
'''),
    Valid("polynomial_gram", "two loops", '''
def polynomial_gram(A, B, degree, coef0):
    G = np.empty((len(A), len(B)))
    for i, a in enumerate(A):
        for j, b in enumerate(B):
            G[i, j] = (np.dot(a, b) + coef0) ** degree
    return G
'''),
    Valid("kernel_perceptron", "rows of G (it is symmetric), counts as ints", '''
def kernel_perceptron(G, y, tau):
    n = len(y)
    alpha = np.zeros(n, dtype=int)
    theta_0 = 0.0
    for _ in range(tau):
        clean = True
        for i in range(n):
            score = np.sum(alpha * y * G[i]) + theta_0
            if y[i] * score <= 0:
                alpha[i] += 1
                theta_0 += y[i]
                clean = False
        if clean:
            break
    return alpha, theta_0
'''),
]

# The right numbers in a type the exercise does not ask for (a list for an array, a
# float for a count): each fails with the hint that says what to return.
WRONG += [
    Wrong("voted_predict", "loops over points and hypotheses, a list", '''
def voted_predict(X, thetas, theta_0s, counts):
    labels = []
    for x in X:
        total = 0
        for theta, theta_0, c in zip(thetas, theta_0s, counts):
            total += c * (1 if theta @ x + theta_0 > 0 else -1)
        labels.append(1 if total > 0 else -1)
    return labels
''', "type"),
]
