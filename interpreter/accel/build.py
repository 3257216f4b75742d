"""Build the compiled tier: each module of ``MODULES`` compiled by Cython (pure-Python mode: the
same ``.py`` file, its annotations not turned into C types; or its Cython file of ``C_SOURCES``)
into an extension module in ``interpreter/accel/built/``, with the manifest the package's
finder reads (interpreter/accel).
``tool="mypyc"`` builds the same modules with mypyc instead, for comparison; docs/performance.md
"The compiled tier" says why Cython is used.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
import sysconfig
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from . import BUILT, MODULES, PACKAGE, digest, in_place, source_of, sources_of, write_manifest

# annotation_typing off: the engine's annotations are documentation (``n: int`` may be any
# integral value, a dict annotated ``dict`` may be a subclass), not C types to enforce
DIRECTIVES = {"language_level": 3, "annotation_typing": False}


class BuildError(Exception):
    """The tier could not be built (no compiler, no Cython, a module that does not compile):
    the message says why; the pure-Python engine is unchanged and still runs."""


def compiler() -> str | None:
    """The C compiler Python's build uses, if it is installed."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(os.environ.get("CC", cc).split()[0])


def build(modules=MODULES, tool: str = "cython", jobs: int = 2, verbose: bool = False) -> list[Path]:
    """Compile ``modules`` into ``BUILT`` (replacing any earlier build, and removing extension
    files of the in-place layout); the extension files written. Raises BuildError, leaving
    the earlier build as it was."""
    if compiler() is None:
        raise BuildError("no C compiler found (install gcc, or set CC): the pure-Python engine runs as it is")
    unknown = [m for m in modules if not all((PACKAGE / f).is_file() for f in sources_of(m))]
    if unknown:
        raise BuildError(f"no such module of the engine: {', '.join(unknown)}")
    # the sources each extension is made from, hashed as they are compiled (read first: an edit
    # during the build leaves the module stale, never loaded). mypyc puts the code of all the
    # modules in one support library, which their own extensions import: each is made from all.
    every = [sources_of(m)[0] for m in modules] if tool == "mypyc" else None
    sources = {f"{PACKAGE.name}.{m}": every or sources_of(m) for m in modules}
    hashes = {tuple(files): digest(files) for files in sources.values()}
    if None in hashes.values():
        raise BuildError("cannot read the sources of the modules to build")
    with tempfile.TemporaryDirectory(prefix="rulebook-build-") as tmp:
        if tool == "cython":
            extensions = _cython(modules, tmp, verbose)
        elif tool == "mypyc":
            extensions = _mypyc(modules, tmp, verbose)
        else:
            raise BuildError(f"unknown tool {tool!r} (cython or mypyc)")
        lib = os.path.join(tmp, "lib")
        cmd = _build_ext(extensions, tmp, jobs, verbose, lib=lib)
        clean()
        BUILT.mkdir(exist_ok=True)
        manifest = {}
        for ext in extensions:
            made = Path(cmd.get_ext_fullpath(ext.name))
            target = BUILT / (ext.name + made.name[made.name.index("."):])   # interpreter.engine.loop.cpython-...so
            shutil.move(made, target)
            files = sources.get(ext.name, every)   # (mypyc's support library: made from all)
            if files is None:
                raise BuildError(f"the build made a module of no source: {ext.name}")
            manifest[ext.name] = {"file": target.name, "sha256": hashes[tuple(files)], "sources": files}
    write_manifest(manifest, tool)
    return [BUILT / entry["file"] for entry in manifest.values()]


def compile_file(source: Path, name: str, folder: Path, flags: tuple[str, ...] = ("-O2", "-g0"),
                 verbose: bool = False, include: tuple[str, ...] = ()) -> Path:
    """Compile one Python file as the top-level extension module ``name``, written into
    ``folder`` (a ruleset's module, rulesets.py; a copy of an engine module, in the tests).
    ``flags``: the C compiler's, after Python's own (of two optimisation levels the last counts);
    ``include``: folders of the C headers it includes."""
    if compiler() is None:
        raise BuildError("no C compiler found (install gcc, or set CC)")
    Extension = _setuptools().Extension
    with tempfile.TemporaryDirectory(prefix="rulebook-build-") as tmp:
        extensions = _cythonized([Extension(name, [str(source)], include_dirs=list(include),
                                            extra_compile_args=list(flags))], tmp, verbose)
        _build_ext(extensions, tmp, 1, verbose, {"": str(folder)})
    found = extension(folder, name)
    if found is None:
        raise BuildError(f"the compiler wrote no module {name} into {folder}")
    return found


def extension(folder: Path, name: str) -> Path | None:
    """The extension module ``name`` in ``folder``, whatever its platform's suffix; None if none."""
    for suffix in EXTENSION_SUFFIXES:
        if (folder / (name + suffix)).is_file():
            return folder / (name + suffix)
    return None


def clean() -> list[Path]:
    """Delete the build (``BUILT``) and any extension file of the in-place layout: back to pure."""
    gone = in_place() + (sorted(BUILT.iterdir()) if BUILT.is_dir() else [])
    for p in gone:
        p.unlink()
    if BUILT.is_dir():
        BUILT.rmdir()
    return gone


def _setuptools():
    try:
        import setuptools
    except ImportError:
        raise BuildError("setuptools is not installed (pip install 'rulebook-engine[fast]')") from None
    return setuptools


def _cython(modules, tmp: str, verbose: bool) -> list:
    Extension = _setuptools().Extension
    # (-g0: no debugging information, a quarter of the C compiler's time; Python's own flags ask for it)
    return _cythonized([Extension(f"{PACKAGE.name}.{m}", [str(PACKAGE / sources_of(m)[-1])], extra_compile_args=["-g0"])
                        for m in modules], tmp, verbose)


def _cythonized(extensions, tmp: str, verbose: bool) -> list:
    try:
        from Cython.Build import cythonize
    except ImportError:
        raise BuildError("Cython is not installed (pip install 'rulebook-engine[fast]', or pip install cython)") from None
    with _quiet(not verbose):
        try:   # (the C files go to the temporary folder, not beside the sources)
            return cythonize(extensions, compiler_directives=DIRECTIVES, build_dir=tmp, quiet=not verbose,
                             force=True)
        except Exception as e:   # Cython reports the line; its exception types vary by version
            raise BuildError(f"Cython could not compile the engine: {e}") from None


def _mypyc(modules, tmp: str, verbose: bool) -> list:
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise BuildError("mypyc is not installed (pip install mypy)") from None
    here = os.getcwd()
    os.chdir(PACKAGE.parent)   # mypyc names modules by their path from here
    try:
        with _quiet(not verbose):
            try:
                return mypycify([str(source_of(m).relative_to(PACKAGE.parent)) for m in modules], target_dir=tmp)
            except SystemExit as e:   # mypyc exits on a type error it cannot compile past
                raise BuildError(f"mypyc could not compile the engine (exit {e.code})") from None
    finally:
        os.chdir(here)


def _build_ext(extensions, tmp: str, jobs: int, verbose: bool, where: dict | None = None, lib: str | None = None):
    """Compile and link ``extensions``: into the folder ``lib`` when given, else in place,
    each beside its package's folder in ``where`` (setuptools' package_dir)."""
    Distribution = _setuptools().Distribution
    dist = Distribution({"ext_modules": extensions, "package_dir": where or {}})
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace = lib is None
    if lib is not None:
        cmd.build_lib = lib
    cmd.build_temp = os.path.join(tmp, "objects")
    cmd.parallel = jobs
    cmd.ensure_finalized()
    with _quiet(not verbose):
        try:
            cmd.run()
        except Exception as e:   # setuptools' CompileError / LinkError / DistutilsExecError
            raise BuildError(f"the C compiler failed: {e}") from None
    return cmd


@contextlib.contextmanager
def _quiet(on: bool):
    """The build tools' own chatter (the C compiler's warnings included: it writes to the file
    descriptors, not to sys.stderr) kept off the terminal unless asked (--verbose); when the
    build fails, the error carries the end of it."""
    if not on:
        yield
        return
    with tempfile.TemporaryFile(mode="w+") as log:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        try:
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                yield
        except BuildError as e:
            log.seek(0)
            tail = log.read()[-1500:].strip()
            raise BuildError(f"{e}\n{tail}" if tail else str(e)) from None
        finally:
            log.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
