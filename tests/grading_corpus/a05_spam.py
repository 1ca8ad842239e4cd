"""Chapter 5 exercises: spam_features, accuracy, train_test_split, kfold_indices."""

from . import Valid, Wrong

#: The rules of the exercise, written plainly; each wrong version below changes one.
RULES = '''
def _is_caps(word):
    letters = [c for c in word if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)
'''

WRONG = [
    # ------------------------------------------------------------------ spam_features
    Wrong("spam_features", "letters and digits by ASCII ranges", RULES + r'''
def spam_features(message):
    words = [t for t in message.split() if re.search("[A-Za-z]", t)]
    caps = [w for w in words if len(re.findall("[A-Za-z]", w)) >= 2
            and not re.search("[a-z]", w)]
    return np.array([len(caps) / max(len(words) - len(caps), 1),
                     len(re.findall("[0-9]", message)) / max(len(words), 1),
                     message.count("!")])
''', "ascii"),
    Wrong("spam_features", "all-caps by two characters, not two letters", RULES + '''
def spam_features(message):
    words = [t for t in message.split() if any(c.isalpha() for c in t)]
    caps = sum(len(w) >= 2 and all(c.isupper() for c in w if c.isalpha()) for w in words)
    return np.array([caps / max(len(words) - caps, 1),
                     sum(c.isdecimal() for c in message) / max(len(words), 1),
                     message.count("!")])
''', "isupper"),
    Wrong("spam_features", "digits by isdigit, which counts the superscript 2", RULES + '''
def spam_features(message):
    words = [t for t in message.split() if any(c.isalpha() for c in t)]
    caps = sum(_is_caps(w) for w in words)
    return np.array([caps / max(len(words) - caps, 1),
                     sum(c.isdigit() for c in message) / max(len(words), 1),
                     message.count("!")])
''', "isdigit"),
    Wrong("spam_features", "counts numbers, not digits", RULES + '''
def spam_features(message):
    tokens = message.split()
    words = [t for t in tokens if any(c.isalpha() for c in t)]
    numbers = [t for t in tokens if any(c.isdecimal() for c in t) and t not in words]
    caps = sum(_is_caps(w) for w in words)
    return np.array([caps / max(len(words) - caps, 1), len(numbers) / max(len(words), 1),
                     message.count("!")])
''', "numbers"),
    Wrong("spam_features", "counts the digits of numbers only", RULES + '''
def spam_features(message):
    tokens = message.split()
    words = [t for t in tokens if any(c.isalpha() for c in t)]
    digits = sum(c.isdecimal() for t in tokens if t not in words for c in t)
    caps = sum(_is_caps(w) for w in words)
    return np.array([caps / max(len(words) - caps, 1), digits / max(len(words), 1),
                     message.count("!")])
''', "digits in numbers"),
    Wrong("spam_features", "all-caps words over all words", RULES + '''
def spam_features(message):
    words = [t for t in message.split() if any(c.isalpha() for c in t)]
    caps = sum(_is_caps(w) for w in words)
    return np.array([caps / max(len(words), 1),
                     sum(c.isdecimal() for c in message) / max(len(words), 1),
                     message.count("!")])
''', "over words"),
    Wrong("spam_features", "all-caps words over the lower-case words", RULES + '''
def spam_features(message):
    words = [t for t in message.split() if any(c.isalpha() for c in t)]
    caps = sum(_is_caps(w) for w in words)
    lower = sum(w.islower() or not any(c.isupper() for c in w) for w in words)
    return np.array([caps / max(lower, 1),
                     sum(c.isdecimal() for c in message) / max(len(words), 1),
                     message.count("!")])
''', "over lower"),
    Wrong("spam_features", "str.isupper on the word", '''
def spam_features(message):
    words = [t for t in message.split() if any(c.isalpha() for c in t)]
    caps = sum(w.isupper() for w in words)
    return np.array([caps / max(len(words) - caps, 1),
                     sum(c.isdecimal() for c in message) / max(len(words), 1),
                     message.count("!")])
''', "isupper"),
    Wrong("spam_features", "str.isupper on every character", '''
def spam_features(message):
    words = [t for t in message.split() if any(c.isalpha() for c in t)]
    caps = sum(all(c.isupper() for c in w) for w in words)
    return np.array([caps / max(len(words) - caps, 1),
                     sum(c.isdecimal() for c in message) / max(len(words), 1),
                     message.count("!")])
''', "caps every character"),
    Wrong("spam_features", "split(' ')", RULES + '''
def spam_features(message):
    words = [t for t in message.split(" ") if any(c.isalpha() for c in t)]
    caps = sum(_is_caps(w) for w in words)
    return np.array([caps / max(len(words) - caps, 1),
                     sum(c.isdecimal() for c in message) / max(len(words), 1),
                     message.count("!")])
''', "split space"),
    Wrong("spam_features", "words by a regular expression", RULES + '''
def spam_features(message):
    words = [t for t in re.findall(r"\\w+", message) if any(c.isalpha() for c in t)]
    caps = sum(_is_caps(w) for w in words)
    return np.array([caps / max(len(words) - caps, 1),
                     sum(c.isdecimal() for c in message) / max(len(words), 1),
                     message.count("!")])
''', "regex"),
    Wrong("spam_features", "words are str.isalpha tokens", RULES + '''
def spam_features(message):
    words = [t for t in message.split() if t.isalpha()]
    caps = sum(_is_caps(w) for w in words)
    return np.array([caps / max(len(words) - caps, 1),
                     sum(c.isdecimal() for c in message) / max(len(words), 1),
                     message.count("!")])
''', "alpha words"),
    Wrong("spam_features", "every token a word", RULES + '''
def spam_features(message):
    words = message.split()
    caps = sum(_is_caps(w) for w in words)
    return np.array([caps / max(len(words) - caps, 1),
                     sum(c.isdecimal() for c in message) / max(len(words), 1),
                     message.count("!")])
''', "tokens as words"),
    Wrong("spam_features", "tokens with an exclamation mark", RULES + '''
def spam_features(message):
    words = [t for t in message.split() if any(c.isalpha() for c in t)]
    caps = sum(_is_caps(w) for w in words)
    return np.array([caps / max(len(words) - caps, 1),
                     sum(c.isdecimal() for c in message) / max(len(words), 1),
                     sum("!" in t for t in message.split())])
''', "marked tokens"),
    Wrong("spam_features", "no guard against a denominator of 0", RULES + '''
def spam_features(message):
    words = [t for t in message.split() if any(c.isalpha() for c in t)]
    caps = sum(_is_caps(w) for w in words)
    return np.array([caps / (len(words) - caps),
                     sum(c.isdecimal() for c in message) / len(words),
                     message.count("!")])
''', None),
    Wrong("spam_features", "calls the library's spam_features", '''
def spam_features(message):
    return pl.spam_features(message)
''', "library"),
    # ----------------------------------------------------------------------- accuracy
    Wrong("accuracy", "the error rate", '''
def accuracy(y_true, y_pred):
    return float(np.mean(y_true != y_pred))
''', "error rate"),
    Wrong("accuracy", "the number of right answers", '''
def accuracy(y_true, y_pred):
    return int(np.sum(y_true == y_pred))
''', "count"),
    Wrong("accuracy", "a percentage", '''
def accuracy(y_true, y_pred):
    return 100 * np.mean(y_true == y_pred)
''', "percent"),
    Wrong("accuracy", "floor division", '''
def accuracy(y_true, y_pred):
    return sum(a == b for a, b in zip(y_true, y_pred)) // len(y_true)
''', "floor division"),
    Wrong("accuracy", "calls the library's accuracy", '''
def accuracy(y_true, y_pred):
    return pl.accuracy(y_true, y_pred)
''', "library"),
    Wrong("accuracy", "an array of booleans", '''
def accuracy(y_true, y_pred):
    return y_true == y_pred
''', None),
    # --------------------------------------------------------------- train_test_split
    Wrong("train_test_split", "int(), rounding down", '''
def train_test_split(n, test_fraction, seed):
    perm = np.random.default_rng(seed).permutation(n)
    n_test = int(test_fraction * n)
    return perm[n_test:], perm[:n_test]
''', "floor"),
    Wrong("train_test_split", "round()", '''
def train_test_split(n, test_fraction, seed):
    perm = np.random.default_rng(seed).permutation(n)
    n_test = round(test_fraction * n)
    return perm[n_test:], perm[:n_test]
''', "round"),
    Wrong("train_test_split", "math.ceil on the inexact product", '''
def train_test_split(n, test_fraction, seed):
    perm = np.random.default_rng(seed).permutation(n)
    n_test = math.ceil(test_fraction * n)
    return perm[n_test:], perm[:n_test]
''', "inexact ceil"),
    Wrong("train_test_split", "the test part first", '''
def train_test_split(n, test_fraction, seed):
    perm = np.random.default_rng(seed).permutation(n)
    n_test = math.ceil(round(test_fraction * n, 9))
    return perm[:n_test], perm[n_test:]
''', "test first"),
    Wrong("train_test_split", "the test part from the end", '''
def train_test_split(n, test_fraction, seed):
    perm = np.random.default_rng(seed).permutation(n)
    n_test = math.ceil(round(test_fraction * n, 9))
    return perm[:n - n_test], perm[n - n_test:]
''', "test last"),
    Wrong("train_test_split", "np.random.seed and np.random.permutation", '''
def train_test_split(n, test_fraction, seed):
    np.random.seed(seed)
    perm = np.random.permutation(n)
    n_test = math.ceil(round(test_fraction * n, 9))
    return perm[n_test:], perm[:n_test]
''', "legacy random"),
    Wrong("train_test_split", "calls the library's train_test_split", '''
def train_test_split(n, test_fraction, seed):
    return pl.train_test_split(n, test_fraction, seed)
''', "library"),
    # ------------------------------------------------------------------ kfold_indices
    Wrong("kfold_indices", "no shuffle", '''
def kfold_indices(n, k, seed):
    folds = np.array_split(np.arange(n), k)
    return [(np.concatenate(folds[:j] + folds[j + 1:]), folds[j]) for j in range(k)]
''', "no shuffle"),
    Wrong("kfold_indices", "np.random.seed and np.random.permutation", '''
def kfold_indices(n, k, seed):
    np.random.seed(seed)
    folds = np.array_split(np.random.permutation(n), k)
    return [(np.concatenate(folds[:j] + folds[j + 1:]), folds[j]) for j in range(k)]
''', "legacy random"),
    Wrong("kfold_indices", "the larger folds last", '''
def kfold_indices(n, k, seed):
    perm = np.random.default_rng(seed).permutation(n)
    folds = [f[::-1] for f in np.array_split(perm[::-1], k)][::-1]
    return [(np.concatenate(folds[:j] + folds[j + 1:]), folds[j]) for j in range(k)]
''', "last larger"),
    Wrong("kfold_indices", "the remainder in the last fold", '''
def kfold_indices(n, k, seed):
    perm = np.random.default_rng(seed).permutation(n)
    size = n // k
    splits = []
    for j in range(k):
        end = n if j == k - 1 else (j + 1) * size
        test = perm[j * size:end]
        splits.append((np.concatenate([perm[:j * size], perm[end:]]), test))
    return splits
''', "rest to last"),
    Wrong("kfold_indices", "the remainder never tested", '''
def kfold_indices(n, k, seed):
    perm = np.random.default_rng(seed).permutation(n)
    size = n // k
    splits = []
    for j in range(k):
        test = perm[j * size:(j + 1) * size]
        splits.append((np.setdiff1d(perm, test), test))
    return splits
''', "rest dropped"),
    Wrong("kfold_indices", "folds of ceil(n / k)", '''
def kfold_indices(n, k, seed):
    perm = np.random.default_rng(seed).permutation(n)
    size = math.ceil(n / k)
    splits = []
    for j in range(k):
        test = perm[j * size:(j + 1) * size]
        splits.append((np.concatenate([perm[:j * size], perm[(j + 1) * size:]]), test))
    return splits
''', "ceil sizes"),
    Wrong("kfold_indices", "test and train swapped", '''
def kfold_indices(n, k, seed):
    folds = np.array_split(np.random.default_rng(seed).permutation(n), k)
    return [(folds[j], np.concatenate(folds[:j] + folds[j + 1:])) for j in range(k)]
''', "test first"),
    Wrong("kfold_indices", "calls the library's kfold_indices", '''
def kfold_indices(n, k, seed):
    return pl.kfold_indices(n, k, seed)
''', "library"),
    Wrong("kfold_indices", "only the test folds", '''
def kfold_indices(n, k, seed):
    return np.array_split(np.random.default_rng(seed).permutation(n), k)
''', None),
]

VALID = [
    Valid("spam_features", "re.split at white space, which leaves an empty token", r'''
def spam_features(message):
    tokens = [t for t in re.split(r"\s+", message) if t]
    words = [t for t in tokens if any(map(str.isalpha, t))]
    caps = [w for w in words
            if sum(c.isalpha() for c in w) >= 2 and w == w.upper()]
    return np.array([len(caps) / max(len(words) - len(caps), 1),
                     len(re.findall(r"\d", message)) / max(len(words), 1),
                     len(re.findall("!", message))])
'''),
    Valid("accuracy", "a loop over pairs", '''
def accuracy(y_true, y_pred):
    right = 0
    for a, b in zip(y_true, y_pred):
        right += a == b
    return right / len(y_true)
'''),
    Valid("train_test_split", "lists, sorted parts, the exact product with fractions", '''
def train_test_split(n, test_fraction, seed):
    from fractions import Fraction
    perm = list(np.random.default_rng(seed).permutation(n))
    n_test = math.ceil(Fraction(str(test_fraction)) * n)
    return sorted(perm[n_test:]), sorted(perm[:n_test])
'''),
    Valid("kfold_indices", "fold sizes by hand, tuples of lists", '''
def kfold_indices(n, k, seed):
    perm = np.random.default_rng(seed).permutation(n).tolist()
    q, r = divmod(n, k)
    splits, start = [], 0
    for j in range(k):
        size = q + 1 if j < r else q
        test = perm[start:start + size]
        train = perm[:start] + perm[start + size:]
        splits.append((train, test))
        start += size
    return tuple(splits)
'''),
]

# The right numbers in a type the exercise does not ask for (a list for an array, a
# float for a count): each fails with the hint that says what to return.
WRONG += [
    Wrong("spam_features", "a single loop with counters, a list", '''
def spam_features(message):
    words = caps = 0
    for token in message.split():
        letters = [c for c in token if c.isalpha()]
        if letters:
            words += 1
            if len(letters) > 1 and "".join(letters).isupper():
                caps += 1
    digits = len([c for c in message if c.isdecimal()])
    return [caps / max(words - caps, 1), digits / max(words, 1), float(message.count("!"))]
''', "type"),
]
