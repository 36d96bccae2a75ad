"""The attacks of a hostile program, each saying on standard error whether it got through.

The first part of every hostile program the tests assemble (README.md): the test
writes its targets into ``TARGETS`` (paths, a port, the environment's secrets and a
marker unique to the test, which its programs' command lines hold). Each attack
reports ``ATTACK <name>: BLOCKED (<why>)`` or ``ATTACK <name>: BREACHED (<what>)``
and never raises, so the program goes on to play legal moves. What an attack got is
said in counts and names, never in contents.
"""

import os
import select
import signal
import socket
import sys
import time

TARGETS: dict = {}  # the test's targets: written in when it assembles the program


def report(attack, breached, what):
    """One verdict line, at once (the program may be killed right after)."""
    verdict = "BREACHED" if breached else "BLOCKED"
    print(f"ATTACK {attack}: {verdict} ({what})", file=sys.stderr, flush=True)


def why(error):
    """An OSError in a few words: ``FileNotFoundError: No such file or directory``."""
    return f"{type(error).__name__}: {getattr(error, 'strerror', None) or error}"


def read_canary():
    """Read the test's canary file, outside the program's folder."""
    try:
        with open(TARGETS["canary"], encoding="utf-8") as canary:
            text = canary.read()
    except OSError as error:
        return report("read-canary", False, why(error))
    return report("read-canary", TARGETS["canary_text"] in text, f"read {len(text)} characters")


def on_the_way_to_a_runtime(path):
    """Whether ``path`` leads to a Python the sandbox must show (c4tui's own may live in a home)."""
    return any(runtime == path or runtime.startswith(path + "/") for runtime in TARGETS["runtimes"])


def list_homes():
    """List /root and the test's $HOME: anything but the way to a runtime is a breach."""
    for home in TARGETS["homes"]:
        try:
            entries = sorted(os.listdir(home))
        except OSError as error:
            report("list-home", False, f"{home}: {why(error)}")
            continue
        seen = [entry for entry in entries if not on_the_way_to_a_runtime(f"{home}/{entry}")]
        shown = ", ".join(seen[:5])
        report("list-home", bool(seen), f"{home}: {len(seen)} entries seen {shown}".strip())


def classmate_paths():
    """Where the classmate's agent may be seen: where it is, and beside this program's file or
    in its working folder (had the sandbox bound the whole class's folder there)."""
    name = os.path.basename(TARGETS["classmate"])
    here = os.path.dirname(os.path.abspath(__file__))
    places = [TARGETS["classmate"], os.path.join(here, name), os.path.join(os.getcwd(), name)]
    return sorted(set(places))


def read_classmate():
    """Read another student's agent, in the same folder as this program's file."""
    failures = []
    for path in classmate_paths():
        try:
            with open(path, encoding="utf-8") as source:
                text = source.read()
        except OSError as error:
            failures.append(f"{path}: {why(error)}")
            continue
        return report("read-classmate", bool(text), f"read {len(text)} characters of {path}")
    return report("read-classmate", False, "; ".join(failures))


def append_classmate():
    """Append to the other student's agent, which would then play differently."""
    failures = []
    for path in classmate_paths():
        try:  # never created: only an existing file is the classmate's
            source = os.open(path, os.O_WRONLY | os.O_APPEND)
            os.write(source, f"\n# changed by {TARGETS['marker']}\n".encode())
            os.close(source)
        except OSError as error:
            failures.append(f"{path}: {why(error)}")
            continue
        return report("append-classmate", True, f"appended a line to {path}")
    return report("append-classmate", False, "; ".join(failures))


def append_own():
    """Append to this program's own file: a program that rewrites itself between games."""
    try:
        source = os.open(os.path.abspath(__file__), os.O_WRONLY | os.O_APPEND)
        os.write(source, f"\n# changed by {TARGETS['marker']}\n".encode())
        os.close(source)
    except OSError as error:
        return report("append-own", False, why(error))
    return report("append-own", True, f"appended a line to {__file__}")


def list_folder():
    """List this program's own folder and working folder: the class's other files are not its."""
    mine = os.path.basename(__file__)
    for folder in sorted({os.path.dirname(os.path.abspath(__file__)), os.getcwd()}):
        try:
            entries = os.listdir(folder)
        except OSError as error:
            report("list-folder", False, f"{folder}: {why(error)}")
            continue
        others = sorted(set(entries) & set(TARGETS["class_files"]) - {mine})
        report("list-folder", bool(others), f"{folder}: {len(others)} others' files {others}")


def write_outside():
    """Write a file in each folder of the test; one the test's witness is not in is private."""
    for attack, (folder, witness) in TARGETS["writes"].items():
        path = os.path.join(folder, f"{TARGETS['marker']}-written.txt")
        try:
            with open(path, "w", encoding="utf-8") as written:
                written.write("a hostile program was here\n")
        except OSError as error:
            report(attack, False, f"{folder}: {why(error)}")
            continue
        real = os.path.exists(witness)
        where = "the real folder: the test's witness is there" if real else "a private folder"
        report(attack, real, f"wrote {path} in {where}")


def connect_loopback():
    """Connect to the test's listener on 127.0.0.1 and send it something."""
    try:
        with socket.create_connection(("127.0.0.1", TARGETS["port"]), timeout=2) as connection:
            connection.sendall(f"hello from {TARGETS['marker']}\n".encode())
    except OSError as error:
        return report("connect-loopback", False, why(error))
    return report("connect-loopback", True, f"connected to port {TARGETS['port']}")


def marked_processes():
    """Pids of the processes whose command line holds the test's marker (this one's too)."""
    marker = TARGETS["marker"].encode()
    found = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as cmdline:
                if name.isdigit() and marker in cmdline.read():
                    found.append(int(name))
        except OSError:
            continue  # not a process, or gone
    return found


def read_env():
    """Look for the test's secrets in this environment and in its tournament's processes'."""
    names, values = TARGETS["env_names"], TARGETS["env_values"]
    seen = {name for name in names if name in os.environ}
    seen |= {f"a value of {name}" for name in os.environ if os.environ[name] in values}
    for pid in marked_processes():
        try:
            with open(f"/proc/{pid}/environ", "rb") as environ:
                text = environ.read().decode(errors="replace")
        except OSError:
            continue
        if any(value in text for value in values):
            seen.add(f"a secret in process {pid}'s")
    report("read-env", bool(seen), ", ".join(sorted(seen)) or f"none of {', '.join(names)}")


def ancestors():
    """This process and those above it: killing them would only end this program."""
    mine, pid = set(), os.getpid()
    for _ in range(64):  # bounded: a chain of parents ends at 0 long before
        mine.add(pid)
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
                pid = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            break
        if pid == 0:
            break
    return mine


def kill_others(quiet=False):
    """SIGKILL the other programs of this tournament (those with the marker) that it can see.

    Only the marker's: the attack must not harm the machine's other processes when a
    sandbox fails. ``quiet``: report only a kill (it runs at every move).
    """
    mine = ancestors()
    killed = []
    for pid in marked_processes():
        if pid in mine:
            continue
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            continue
        killed.append(pid)
    if killed or not quiet:
        visible = sum(name.isdigit() for name in os.listdir("/proc"))
        what = f"killed {killed}" if killed else f"no other program seen in {visible} processes"
        report("kill-others", bool(killed), what)


def every_attack():
    """The attacks on files, the network and the environment, then the assassin's first try."""
    read_canary()
    list_homes()
    list_folder()
    read_classmate()
    append_classmate()
    append_own()
    write_outside()
    connect_loopback()
    read_env()
    kill_others()


def fork_children(count=300, seconds=60):
    """Fork ``count`` children that sleep ``seconds`` (holding the program's pipes)."""
    children = []
    for _ in range(count):
        try:
            child = os.fork()
        except OSError as error:
            return report("fork-300", False, f"fork {len(children) + 1} refused: {why(error)}")
        if child == 0:
            time.sleep(seconds)
            os._exit(0)
        children.append(child)
    return report("fork-300", True, f"{len(children)} children running")


HELD = []  # what hold_memory holds, for the program's life


def hold_memory(megabytes=700, seconds=30):
    """Hold ``megabytes`` (written, so really used) in a child, then as much in this process.

    In that order, a kernel bounding the two together kills the child (the larger when
    the bound is reached) and this process plays on: c4tui must still see the bound
    passed. Each step is said on standard error (it may be killed before the verdict).
    """
    print(f"hold-memory: {megabytes} MB in each of two processes", file=sys.stderr, flush=True)
    ready, told = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            HELD.append(b"\1" * (megabytes << 20))
            os.write(told, b"1")
        except MemoryError:
            os.write(told, b"0")
        time.sleep(60)
        os._exit(0)
    os.close(told)  # the child's end only: its death is then the pipe's end
    if not select.select([ready], [], [], seconds)[0] or os.read(ready, 1) != b"1":
        return report("hold-memory", False, f"the child held nothing within {seconds} s")
    try:
        HELD.append(b"\1" * (megabytes << 20))
    except MemoryError as error:
        return report("hold-memory", False, f"this process: {why(error)}")
    time.sleep(0.5)  # for a kill to land
    if os.waitpid(child, os.WNOHANG) != (0, 0):
        return report("hold-memory", False, "the child was ended when this process held as much")
    return report("hold-memory", True, f"two processes hold {megabytes} MB each")
