"""Chapter 7 exercises: hinge_deficiency, margin_perceptron, multiclass_perceptron."""

from . import Valid, Wrong


def deficiency(margins="y * (X @ theta + theta_0) / np.sqrt(theta @ theta + theta_0 ** 2)",
               d="np.maximum(0.0, gamma - margins)", result="np.sqrt(np.sum(d ** 2))"):
    """A hinge deficiency in a student's words, with the parts a mistake changes."""
    return (
        "def hinge_deficiency(X, y, theta, theta_0, gamma):\n"
        f"    margins = {margins}\n"
        f"    d = {d}\n"
        f"    return float({result})\n")


def margin_loop(*, test="y[i] * (theta @ X[i] + theta_0) <= margin", epochs="range(tau)",
                offset="theta_0 += y[i]", reset="", stop="        if not changed:\n"
                "            break\n", extra=""):
    """A margin perceptron in a student's words, with the parts a mistake changes."""
    return (
        "def margin_perceptron(X, y, margin, tau):\n"
        "    theta, theta_0, updates = np.zeros(X.shape[1]), 0.0, 0\n"
        f"    for _ in {epochs}:\n"
        "        changed = False\n"
        f"{reset}"
        "        for i in range(len(y)):\n"
        f"{extra}"
        f"            if {test}:\n"
        "                theta = theta + y[i] * X[i]\n"
        f"                {offset}\n"
        "                updates += 1\n"
        "                changed = True\n"
        f"{stop}"
        "    return theta, theta_0, updates\n")


RIVAL = ("others = scores.copy()", "others[t] = -np.inf", "p = int(np.argmax(others))")


def multiclass(*, classes="np.unique(y)", scores="Theta @ X[i] + theta_0", rival=RIVAL,
               test="scores[p] >= scores[t]",
               promote=("Theta[t] += X[i]", "theta_0[t] += 1"),
               demote=("Theta[p] -= X[i]", "theta_0[p] -= 1"), epochs="range(tau)"):
    """A multiclass perceptron in a student's words, with the parts a mistake changes
    (``rival``, ``promote`` and ``demote`` are whole statements)."""
    find = "".join(f"            {line}\n" for line in rival)
    update = "".join(f"                {line}\n" for line in (*promote, *demote))
    return (
        "def multiclass_perceptron(X, y, tau):\n"
        f"    classes = {classes}\n"
        "    row = {c: j for j, c in enumerate(classes)}\n"
        "    Theta, theta_0 = np.zeros((len(classes), X.shape[1])), np.zeros(len(classes))\n"
        f"    for _ in {epochs}:\n"
        "        changed = False\n"
        "        for i in range(len(y)):\n"
        f"            scores = {scores}\n"
        "            t = row[y[i]]\n"
        f"{find}"
        f"            if {test}:\n"
        f"{update}"
        "                changed = True\n"
        "        if not changed:\n"
        "            break\n"
        "    return Theta, theta_0\n")


WRONG = [
    # -------------------------------------------------------------- hinge_deficiency
    Wrong("hinge_deficiency", "the d_i stored in an array like y, integers when y is", '''
def hinge_deficiency(X, y, theta, theta_0, gamma):
    norm = np.sqrt(theta @ theta + theta_0 ** 2)
    d = np.zeros_like(y)
    for i in range(len(y)):
        d[i] = max(0.0, gamma - y[i] * (X[i] @ theta + theta_0) / norm)
    return float(np.sqrt(np.sum(d ** 2)))
''', None),
    Wrong("hinge_deficiency", "negative deficiencies kept", deficiency(d="gamma - margins"),
          "no max"),
    Wrong("hinge_deficiency", "the sum of the d_i", deficiency(result="np.sum(d)"), "sum"),
    Wrong("hinge_deficiency", "no square root", deficiency(result="np.sum(d ** 2)"),
          "no root"),
    Wrong("hinge_deficiency", "the root of the mean square", deficiency(
        result="np.sqrt(np.mean(d ** 2))"), "mean"),
    Wrong("hinge_deficiency", "the largest d_i", deficiency(result="d.max()"), "max"),
    Wrong("hinge_deficiency", "functional margins", deficiency(
        margins="y * (X @ theta + theta_0)"), "functional"),
    Wrong("hinge_deficiency", "chapter 3's margins, divided by ||theta||", deficiency(
        margins="y * (X @ theta + theta_0) / np.linalg.norm(theta)"), "theta norm"),
    Wrong("hinge_deficiency", "forgets theta_0", deficiency(
        margins="y * (X @ theta) / np.linalg.norm(theta)"), "no offset"),
    Wrong("hinge_deficiency", "forgets theta_0 in the score, not in the norm", deficiency(
        margins="y * (X @ theta) / np.sqrt(theta @ theta + theta_0 ** 2)"), None),
    Wrong("hinge_deficiency", "distances without the labels", deficiency(
        margins="(X @ theta + theta_0) / np.sqrt(theta @ theta + theta_0 ** 2)"), "no label"),
    Wrong("hinge_deficiency", "the absolute gap to gamma", deficiency(
        d="np.abs(gamma - margins)"), "no max"),
    Wrong("hinge_deficiency", "normalises theta in place", '''
def hinge_deficiency(X, y, theta, theta_0, gamma):
    norm = np.sqrt(theta @ theta + theta_0 ** 2)
    theta /= norm
    d = np.maximum(0.0, gamma - y * (X @ theta + theta_0 / norm))
    return float(np.sqrt(np.sum(d ** 2)))
''', "changed input"),
    Wrong("hinge_deficiency", "calls the library's hinge_deficiency", '''
def hinge_deficiency(X, y, theta, theta_0, gamma):
    return float(pl.hinge_deficiency(X, y, theta, theta_0, gamma))
''', "library"),
    Wrong("hinge_deficiency", "chapter 3's point_margins on the lifted data", '''
def hinge_deficiency(X, y, theta, theta_0, gamma):
    lifted = np.append(theta, theta_0)
    margins = pl.point_margins(pl.add_offset_feature(X), y, lifted)
    return float(np.sqrt(np.sum(np.maximum(0.0, gamma - margins) ** 2)))
''', "library"),
    # ------------------------------------------------------------- margin_perceptron
    Wrong("margin_perceptron", "a strict test", margin_loop(
        test="y[i] * (theta @ X[i] + theta_0) < margin"), "strict"),
    Wrong("margin_perceptron", "the plain perceptron's test", margin_loop(
        test="y[i] * (theta @ X[i] + theta_0) <= 0"), "plain"),
    Wrong("margin_perceptron", "geometric margins", margin_loop(
        extra="            norm = np.linalg.norm(theta) or 1.0\n",
        test="y[i] * (theta @ X[i] + theta_0) / norm <= margin"), "geometric"),
    Wrong("margin_perceptron", "no offset", margin_loop(offset="pass"), "no offset"),
    Wrong("margin_perceptron", "the offset outside the product", margin_loop(
        test="y[i] * theta @ X[i] + theta_0 <= margin"), "offset outside"),
    Wrong("margin_perceptron", "runs until no update", margin_loop(
        epochs="range(10_000)"), "ignores tau"),
    Wrong("margin_perceptron", "tau + 1 epochs", margin_loop(epochs="range(tau + 1)"),
          "extra epoch"),
    Wrong("margin_perceptron", "counts the last epoch's updates", margin_loop(
        reset="        updates = 0\n"), "epoch count"),
    Wrong("margin_perceptron", "stops after an epoch with no mistake", '''
def margin_perceptron(X, y, margin, tau):
    theta, theta_0, updates = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        mistakes = 0
        for i in range(len(y)):
            score = y[i] * (theta @ X[i] + theta_0)
            if score <= 0:
                mistakes += 1
            if score <= margin:
                theta = theta + y[i] * X[i]
                theta_0 += y[i]
                updates += 1
        if mistakes == 0:
            break
    return theta, theta_0, updates
''', "stops without mistakes"),
    Wrong("margin_perceptron", "scales the data in place", '''
def margin_perceptron(X, y, margin, tau):
    X *= y[:, None]
    theta, theta_0, updates = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(tau):
        changed = False
        for i in range(len(y)):
            if theta @ X[i] + y[i] * theta_0 <= margin:
                theta = theta + X[i]
                theta_0 += y[i]
                updates += 1
                changed = True
        if not changed:
            break
    return theta, theta_0, updates
''', "changed input"),
    Wrong("margin_perceptron", "calls the library's margin_perceptron", '''
def margin_perceptron(X, y, margin, tau):
    run = pl.margin_perceptron(X, y, margin=margin, tau=tau)
    return run.theta, run.theta_0, run.mistakes
''', "library"),
    # --------------------------------------------------------- multiclass_perceptron
    Wrong("multiclass_perceptron", "only the true class moves", multiclass(demote=()),
          "no demotion"),
    Wrong("multiclass_perceptron", "no offsets", multiclass(
        scores="Theta @ X[i]", promote=("Theta[t] += X[i]",), demote=("Theta[p] -= X[i]",)),
        "no offset"),
    Wrong("multiclass_perceptron", "updates only when the prediction is wrong", multiclass(
        rival=("p = int(np.argmax(scores))",), test="p != t"), "tie won"),
    Wrong("multiclass_perceptron", "a strict comparison with the rival", multiclass(
        test="scores[p] > scores[t]"), "strict"),
    Wrong("multiclass_perceptron", "the last rival on a tie", multiclass(rival=(
        "others = scores.copy()", "others[t] = -np.inf",
        "p = len(others) - 1 - int(np.argmax(others[::-1]))")), "last rival"),
    Wrong("multiclass_perceptron", "classes in order of appearance", multiclass(
        classes="list(dict.fromkeys(y.tolist()))"), "unsorted"),
    Wrong("multiclass_perceptron", "demotes every class that reaches the true one",
          multiclass(rival=("p = [j for j in range(len(scores)) if j != t and "
                            "scores[j] >= scores[t]]",), test="p",
                     demote=("for j in p:", "    Theta[j] -= X[i]", "    theta_0[j] -= 1")),
          "demotes all"),
    Wrong("multiclass_perceptron", "runs until no mistake", multiclass(
        epochs="range(10_000)"), "ignores tau"),
    Wrong("multiclass_perceptron", "tau + 1 epochs", multiclass(epochs="range(tau + 1)"),
          "extra epoch"),
    Wrong("multiclass_perceptron", "labels taken as row numbers", '''
def multiclass_perceptron(X, y, tau):
    m = int(y.max()) + 1
    Theta, theta_0 = np.zeros((m, X.shape[1])), np.zeros(m)
    for _ in range(tau):
        changed = False
        for x, t in zip(X, y):
            scores = Theta @ x + theta_0
            p = int(np.argmax(np.where(np.arange(m) == t, -np.inf, scores)))
            if scores[p] >= scores[t]:
                Theta[t] += x
                theta_0[t] += 1
                Theta[p] -= x
                theta_0[p] -= 1
                changed = True
        if not changed:
            break
    return Theta, theta_0
''', None),
    Wrong("multiclass_perceptron", "calls the library's multiclass_perceptron", '''
def multiclass_perceptron(X, y, tau):
    run = pl.multiclass_perceptron(X, y, tau=tau)
    return run.Theta, run.theta_0
''', "library"),
    Wrong("multiclass_perceptron", "Kesler's vectors and the binary perceptron", '''
def multiclass_perceptron(X, y, tau):
    kesler = pl.kesler_construction(X, y)
    run = pl.perceptron_through_origin(kesler.X, kesler.y, tau=tau)
    return pl.kesler_weights(run.theta, kesler)
''', "library"),
]

VALID = [
    Valid("hinge_deficiency", "a loop over the examples, math.sqrt", '''
def hinge_deficiency(X, y, theta, theta_0, gamma):
    norm = math.sqrt(sum(t * t for t in theta) + theta_0 * theta_0)
    total = 0.0
    for x, label in zip(X, y):
        gap = gamma - label * (np.dot(theta, x) + theta_0) / norm
        if gap > 0:
            total += gap ** 2
    return math.sqrt(total)
'''),
    Valid("hinge_deficiency", "lifted by hand, a unit vector, np.linalg.norm of the d_i", '''
def hinge_deficiency(X, y, theta, theta_0, gamma):
    Z = np.hstack([X, np.ones((len(X), 1))])
    u = np.append(theta, theta_0)
    u = u / np.linalg.norm(u)
    return float(np.linalg.norm(np.clip(gamma - y * (Z @ u), 0, None)))
'''),
    Valid("margin_perceptron", "a while loop over epochs, int labels", '''
def margin_perceptron(X, y, margin, tau):
    theta = np.zeros(len(X[0]))
    theta_0 = 0.0
    updates, epoch, clean = 0, 0, False
    while epoch < tau and not clean:
        epoch += 1
        clean = True
        for x, label in zip(X, y):
            if label * (np.dot(theta, x) + theta_0) <= margin:
                theta = theta + label * x
                theta_0 = theta_0 + label
                updates += 1
                clean = False
    return theta, theta_0, updates
'''),
    Valid("multiclass_perceptron", "a dictionary of rows, stacked at the end", '''
def multiclass_perceptron(X, y, tau):
    classes = sorted(set(y.tolist()))
    w = {c: np.zeros(X.shape[1]) for c in classes}
    b = {c: 0.0 for c in classes}
    for _ in range(tau):
        mistakes = 0
        for x, label in zip(X, y):
            rival = None
            for c in classes:
                if c != label and (rival is None or w[c] @ x + b[c] > w[rival] @ x + b[rival]):
                    rival = c
            if w[rival] @ x + b[rival] >= w[label] @ x + b[label]:
                w[label], b[label] = w[label] + x, b[label] + 1
                w[rival], b[rival] = w[rival] - x, b[rival] - 1
                mistakes += 1
        if mistakes == 0:
            break
    return np.array([w[c] for c in classes]), np.array([b[c] for c in classes])
'''),
]
