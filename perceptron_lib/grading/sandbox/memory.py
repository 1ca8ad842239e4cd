"""The memory of one submission: all its processes together, not each on its own.

``RLIMIT_AS`` holds each process of a submission (``Limits.memory_bytes``), but a
submission may start up to ``Limits.processes`` of them.  Their total
(``Limits.total_memory_bytes``) is held here, by the first of these schemes that the
machine allows (chosen once per grader process, see :func:`scheme`):

- ``"cgroup v2"`` and ``"cgroup v1"``: every run gets a memory cgroup of its own, made
  below the grader's own cgroup: ``memory.max``, ``memory.swap.max`` 0 and ``pids.max``
  (v2), or ``memory.limit_in_bytes`` and ``memory.memsw.limit_in_bytes`` (v1).  The child
  enters it between fork and exec, before anything of the submission runs, so every
  process the submission makes counts.  At the limit the kernel kills a process of the
  group (the biggest), and the group's ``oom_kill`` count says so.  When the run ends,
  every process left in the group is killed and the group removed.
- ``"sampled"``, where no cgroup can be made (no cgroup file system, a cgroup v2 whose
  memory controller is not delegated to the grader, a grader that may not write
  there): a watchdog thread adds up, every :data:`SAMPLE_SECONDS`, the memory of the
  run's processes and, when the sum passes the limit, kills the biggest of them, as
  the kernel would.  It adds up resident sizes (cheap to read); only when those pass
  the limit does it read proportional sizes (PSS: a page shared by several processes,
  as after a fork, counted once), which decide.  Between two samples a process can
  grow past the total; each is still held by ``RLIMIT_AS``.
- ``"none"`` where the system has no ``/proc`` to sample (not Linux): ``RLIMIT_AS`` only.

Either way one process is killed, not the run: one bad cell costs one cell, and the
runner reports the run as having hit its memory limit.  ``PERCEPTRON_GRADING_MEMORY=
sampled`` forces the watchdog (for the tests, or a machine whose cgroups misbehave).
"""

from __future__ import annotations

import os
import platform
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

#: Seconds between two samples of the watchdog.
SAMPLE_SECONDS = 0.05
#: The environment variable that forces a scheme (only ``"sampled"`` is understood).
FORCE = "PERCEPTRON_GRADING_MEMORY"
#: Names of the groups made for runs: ``perceptron-run-<grader pid>-<n>``.
PREFIX = "perceptron-run-"
#: Processes a group may hold beyond the submission's own (bubblewrap's two).
EXTRA_PROCESSES = 4


@dataclass(frozen=True)
class Scheme:
    """How the total memory of a run is held on this machine.

    ``name`` is ``"cgroup v2"``, ``"cgroup v1"``, ``"sampled"`` or ``"none"``;
    ``parent`` is the cgroup folder the runs' groups are made in (cgroup schemes);
    ``why`` says why no cgroup is used (the other schemes).
    """

    name: str
    parent: Path | None = None
    why: str = ""


@dataclass(frozen=True)
class Outcome:
    """What the memory guard saw of one run: whether the limit was hit, and the peak."""

    hit: bool
    peak_bytes: int | None


# ------------------------------------------------------------- where the grader's cgroup is
def _unescape(field: str) -> str:
    """A mountinfo field with its octal escapes (``\\040`` for a space) decoded."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def _mounts(mountinfo: str) -> list[tuple[str, str, str, set[str]]]:
    """(root, mount point, file system type, super options) of each mount."""
    mounts = []
    for line in mountinfo.splitlines():
        left, sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not sep or len(fields) < 5 or len(tail) < 3:
            continue
        mounts.append((_unescape(fields[3]), _unescape(fields[4]), tail[0],
                       set(tail[2].split(","))))
    return mounts


def _below(root: str, own: str, mount_point: str) -> Path | None:
    """The folder of cgroup ``own`` in a mount of the hierarchy's ``root``, if reachable."""
    if own != root and not own.startswith(root.rstrip("/") + "/"):
        return None
    return Path(mount_point, own[len(root):].lstrip("/"))


def locate(cgroups: str, mountinfo: str) -> tuple[str, Path] | str:
    """The grader's own memory cgroup: ``("cgroup v2" | "cgroup v1", folder)``.

    Parameters
    ----------
    cgroups, mountinfo
        The text of ``/proc/self/cgroup`` and ``/proc/self/mountinfo``.

    Returns
    -------
    tuple or str
        The scheme and the folder of the grader's cgroup, or why there is none.  A
        cgroup v2 counts only when its memory controller is there (on a machine with
        both, the memory controller may be in the v1 hierarchy).
    """
    owns: dict[str, str] = {}
    for line in cgroups.splitlines():
        number, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if number == "0" and controllers == "":
            owns["v2"] = path
        elif "memory" in controllers.split(","):
            owns["v1"] = path
    mounts = _mounts(mountinfo)
    if "v2" in owns:
        for root, point, kind, _ in mounts:
            folder = _below(root, owns["v2"], point) if kind == "cgroup2" else None
            if folder is not None and "memory" in _read(folder / "cgroup.controllers").split():
                return "cgroup v2", folder
    if "v1" in owns:
        for root, point, kind, options in mounts:
            folder = _below(root, owns["v1"], point) if kind == "cgroup" else None
            if folder is not None and "memory" in options:
                return "cgroup v1", folder
    if not owns:
        return "this system has no cgroups"
    return ("no cgroup file system with the memory controller is mounted where the "
            "grader's cgroup is")


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _write(path: Path, text: str) -> None:
    path.write_text(text)


# ------------------------------------------------------------- one group
def _counts(text: str) -> dict[str, int]:
    """``key value`` lines (memory.events, memory.oom_control) as a dict."""
    counts = {}
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if value.strip().isdigit():
            counts[key] = int(value)
    return counts


def _enable_v2_controllers(parent: Path) -> None:
    """Let the groups below ``parent`` have memory (and, where possible, pids) limits."""
    control = parent / "cgroup.subtree_control"
    enabled = _read(control).split()
    for name in ("memory", "pids"):
        if name not in enabled:
            try:
                _write(control, f"+{name}")
            except OSError as exc:
                if name == "memory":
                    raise OSError(exc.errno, "the memory controller cannot be enabled below "
                                  f"the grader's cgroup {parent} ({exc.strerror})") from exc


def make_group(kind: str, parent: Path, limit: int, processes: int, name: str) -> Path:
    """Make the cgroup ``parent/name`` holding at most ``limit`` bytes; its folder.

    Raises OSError (the group removed again) when a limit cannot be set.
    """
    if kind == "cgroup v2":
        _enable_v2_controllers(parent)
    group = parent / name
    group.mkdir()
    try:
        if kind == "cgroup v2":
            _write(group / "memory.max", str(limit))
            if (group / "memory.swap.max").exists():
                _write(group / "memory.swap.max", "0")
            if (group / "pids.max").exists():
                _write(group / "pids.max", str(processes + EXTRA_PROCESSES))
        else:
            _write(group / "memory.limit_in_bytes", str(limit))
            if (group / "memory.memsw.limit_in_bytes").exists():
                _write(group / "memory.memsw.limit_in_bytes", str(limit))
            else:
                _write(group / "memory.swappiness", "0")
    except OSError:
        remove_group(group)
        raise
    return group


def _members(group: Path) -> list[int]:
    return [int(p) for p in _read(group / "cgroup.procs").split() if p.isdigit()]


def remove_group(group: Path, seconds: float = 2.0) -> bool:
    """Kill every process in ``group`` and remove it; whether it is gone."""
    if (group / "cgroup.kill").exists():
        try:
            _write(group / "cgroup.kill", "1")
        except OSError:
            pass
    deadline = time.monotonic() + seconds
    pause = 0.001  # the group usually empties within a millisecond of the kill
    while True:
        for pid in _members(group):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            group.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() > deadline:
                return False
            time.sleep(pause)
            pause = min(2 * pause, 0.01)


def _hit(kind: str, group: Path) -> bool:
    """Whether the kernel killed a process of ``group`` for its memory limit."""
    if kind == "cgroup v2":
        return _counts(_read(group / "memory.events")).get("oom_kill", 0) > 0
    control = _counts(_read(group / "memory.oom_control"))
    if "oom_kill" in control:  # Linux 4.13 and later
        return control["oom_kill"] > 0 or control.get("under_oom", 0) > 0
    failures = [_read(group / f).strip() for f in ("memory.memsw.failcnt", "memory.failcnt")]
    return any(f.isdigit() and int(f) > 0 for f in failures)


def _peak(kind: str, group: Path) -> int | None:
    text = _read(group / ("memory.peak" if kind == "cgroup v2"
                          else "memory.max_usage_in_bytes")).strip()
    return int(text) if text.isdigit() else None


# ------------------------------------------------------------- choosing, once
_schemes: list[Scheme] = []
_lock = threading.Lock()
_count = [0]


def scheme() -> Scheme:
    """The scheme in force: probed once (a group made, entered and removed)."""
    if os.environ.get(FORCE) == "sampled":
        return Scheme("sampled", why=f"{FORCE}=sampled is set")
    with _lock:
        if not _schemes:
            _schemes.append(_probe())
        return _schemes[0]


def _probe() -> Scheme:
    if platform.system() != "Linux" or not os.path.isdir("/proc/self"):
        return Scheme("none", why=f"{platform.system()} has no /proc to sample; each "
                      "process is still held by its own limit")
    found = locate(_read(Path("/proc/self/cgroup")), _read(Path("/proc/self/mountinfo")))
    if isinstance(found, str):
        return Scheme("sampled", why=found)
    kind, parent = found
    _sweep(parent)
    try:
        group = make_group(kind, parent, 256 * 1024**2, 4, f"{PREFIX}{os.getpid()}-probe")
    except OSError as exc:
        return Scheme("sampled", why=f"{kind}: no group can be made in {parent}: {exc}")
    try:
        entered = _enters(group)
    finally:
        remove_group(group)
    if not entered:
        return Scheme("sampled", why=f"{kind}: a process cannot be moved into a group "
                      f"made in {parent}")
    return Scheme(kind, parent)


def _enters(group: Path) -> bool:
    """Whether a process started with :func:`_enter` ends up in ``group``."""
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-S", "-c", "print(open('/proc/self/cgroup').read())"],
            capture_output=True, text=True, timeout=30,
            preexec_fn=lambda: _enter(group))
    except (OSError, subprocess.SubprocessError):
        return False
    return any(line.endswith("/" + group.name) for line in done.stdout.splitlines())


def _enter(group: Path) -> None:
    """Move the calling process into ``group`` (between fork and exec: no Python file
    objects, no exception out)."""
    try:
        fd = os.open(group / "cgroup.procs", os.O_WRONLY)
        try:
            os.write(fd, b"0")
        finally:
            os.close(fd)
    except OSError:
        pass  # the parent checks, and falls back to sampling


def _sweep(parent: Path) -> None:
    """Remove the groups that graders no longer running left behind."""
    try:
        folders = [p for p in parent.iterdir() if p.name.startswith(PREFIX)]
    except OSError:
        return
    for folder in folders:
        owner = folder.name[len(PREFIX):].split("-")[0]
        if owner.isdigit() and not _alive(int(owner)):
            remove_group(folder, seconds=0.5)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def report(limit: int) -> dict:
    """The scheme in force and the limit, for the isolation report."""
    s = scheme()
    facts: dict = {"scheme": s.name, "limit_bytes": limit}
    if s.parent is not None:
        facts["cgroup"] = str(s.parent)
    if s.name == "sampled":
        facts["sample_seconds"] = SAMPLE_SECONDS
    if s.why:
        facts["why"] = s.why
    return facts


# ------------------------------------------------------------- guards
class Guard:
    """Keeps the processes of one run, together, within ``limit`` bytes.

    :meth:`enter` runs in the child between fork and exec, :meth:`watch` in the grader
    once the child started, :meth:`finish` when the run ended: it kills what is left and
    says what happened.  This base class holds nothing (the ``"none"`` scheme).
    """

    scheme = "none"

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def enter(self) -> None:
        """Called in the child between fork and exec."""

    def watch(self, pid: int, uid: int | None) -> None:
        """Called once the child (process ``pid``, of ``uid`` when root) started."""

    def finish(self) -> Outcome:
        """Stop watching, kill what is left of the run, and say what happened."""
        return Outcome(hit=False, peak_bytes=None)

    def hit_so_far(self) -> bool:
        """Whether the limit was hit until now (the run goes on)."""
        return False


class CgroupGuard(Guard):
    """A memory cgroup of the run's own."""

    def __init__(self, limit: int, kind: str, group: Path) -> None:
        super().__init__(limit)
        self.scheme, self.group = kind, group
        self.fallback: SampledGuard | None = None

    def enter(self) -> None:
        _enter(self.group)

    def watch(self, pid: int, uid: int | None) -> None:
        lines = _read(Path(f"/proc/{pid}/cgroup")).splitlines()
        if not any(line.endswith("/" + self.group.name) for line in lines):
            self.fallback = SampledGuard(self.limit)  # it did not get in: sample instead
            self.fallback.watch(pid, uid)

    def hit_so_far(self) -> bool:
        return _hit(self.scheme, self.group) or (
            self.fallback is not None and self.fallback.hit_so_far())

    def finish(self) -> Outcome:
        outcome = Outcome(hit=_hit(self.scheme, self.group),
                          peak_bytes=_peak(self.scheme, self.group))
        remove_group(self.group)
        if self.fallback is not None:
            sampled = self.fallback.finish()
            outcome = Outcome(hit=outcome.hit or sampled.hit, peak_bytes=sampled.peak_bytes)
        return outcome


class SampledGuard(Guard):
    """A watchdog thread that adds up the memory of the run's processes."""

    scheme = "sampled"

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.hit = False
        self.peak = 0
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    def watch(self, pid: int, uid: int | None) -> None:
        self.thread = threading.Thread(target=self._loop, args=(pid, uid), daemon=True,
                                       name=f"memory watchdog of {pid}")
        self.thread.start()

    def _loop(self, pid: int, uid: int | None) -> None:
        while not self.stop.wait(SAMPLE_SECONDS):
            pids = run_processes(pid, uid)
            sizes = {p: resident_bytes(p) for p in pids}
            if sum(sizes.values()) > self.limit:  # resident sizes overstate: look closer
                sizes = {p: process_bytes(p) for p in pids}
            total = sum(sizes.values())
            self.peak = max(self.peak, total)
            if total > self.limit and sizes:
                self.hit = True
                _kill_biggest(sizes, uid)

    def hit_so_far(self) -> bool:
        return self.hit

    def finish(self) -> Outcome:
        """Stop the watchdog; the peak is its largest sum (resident sizes, which count a
        shared page in each process, or proportional ones past the limit)."""
        self.stop.set()
        if self.thread is not None:
            self.thread.join(timeout=5)
        return Outcome(hit=self.hit, peak_bytes=self.peak or None)


def _kill_biggest(sizes: dict[int, int], uid: int | None) -> None:
    biggest = max(sizes, key=sizes.__getitem__)
    if uid is not None and _owner(biggest) != uid:
        return  # gone, and its number given to someone else
    try:
        os.kill(biggest, signal.SIGKILL)
    except OSError:
        pass


def guard(limit: int, processes: int) -> Guard:
    """A guard for one new run, by the scheme in force (sampling when a group cannot be
    made for this run)."""
    s = scheme()
    if s.name.startswith("cgroup") and s.parent is not None:
        with _lock:
            _count[0] += 1
            name = f"{PREFIX}{os.getpid()}-{_count[0]}"
        try:
            return CgroupGuard(limit, s.name, make_group(s.name, s.parent, limit,
                                                         processes, name))
        except OSError:
            return SampledGuard(limit)
    if s.name == "sampled":
        return SampledGuard(limit)
    return Guard(limit)


# ------------------------------------------------------------- the run's processes
def _owner(pid: int) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None


def _pids() -> list[int]:
    try:
        return [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return []


def _proc(pid: int, name: str) -> bytes:
    """``/proc/<pid>/<name>`` (plain reads: the watchdog reads many, often)."""
    try:
        fd = os.open(f"/proc/{pid}/{name}", os.O_RDONLY)
    except OSError:
        return b""
    try:
        return os.read(fd, 8192)
    except OSError:
        return b""
    finally:
        os.close(fd)


def _parent_and_session(pid: int) -> tuple[int, int] | None:
    """(parent pid, session id) of ``pid`` from ``/proc/<pid>/stat``."""
    fields = _proc(pid, "stat").rpartition(b")")[2].split()  # the name may hold spaces
    if len(fields) < 4:
        return None
    return int(fields[1]), int(fields[3])


def run_processes(pid: int, uid: int | None) -> list[int]:
    """The processes of the run started as ``pid``.

    With a uid of its own (the grader is root), every process of that uid; otherwise
    the descendants of ``pid`` and the members of its session (the child starts one).
    """
    if uid is not None:
        return [p for p in _pids() if _owner(p) == uid]
    children: dict[int, list[int]] = {}
    found = {pid}
    for p in _pids():
        facts = _parent_and_session(p)
        if facts is not None:
            children.setdefault(facts[0], []).append(p)
            if facts[1] == pid:
                found.add(p)
    todo = list(found)
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return sorted(found)


def resident_bytes(pid: int) -> int:
    """The resident size of ``pid`` (a page shared with other processes counts in each)."""
    fields = _proc(pid, "statm").split()
    return int(fields[1]) * os.sysconf("SC_PAGE_SIZE") if len(fields) > 1 else 0


def process_bytes(pid: int) -> int:
    """The memory of ``pid``: its proportional set size (shared pages split among the
    processes that share them), or its resident size where that cannot be read.  Reading
    it walks the process's pages: some milliseconds for a few hundred megabytes."""
    for line in _proc(pid, "smaps_rollup").splitlines():
        if line.startswith(b"Pss:"):
            return int(line.split()[1]) * 1024
    return resident_bytes(pid)
