"""The folder an import is written to: never a file of the user's overwritten or removed.

An import is written whole into a staging folder beside OUTDIR, then its files are moved into
OUTDIR one by one (renames).  OUTDIR must be new, empty, or a previous import of the same module,
which ``import-record.toml`` identifies: the module's name and the SHA-256 of every file that
import wrote.  Into a previous import, a file is written only where that import wrote the same
file and it is unchanged since; a file the user added or edited is never touched (the import is
refused, naming it, before anything moves), and files of the previous import that the new one
does not write again are removed only when unchanged.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import BadFile, Problem, excerpt
from engine.fileio import read_toml, write_toml

RECORD = "import-record.toml"
RECORD_FORMAT = 1


class FolderTaken(BadFile):
    """OUTDIR holds files this importer did not write (or is not a folder): the import is refused."""


@dataclass
class Record:
    """What a previous import wrote into a folder."""

    module: str = ""
    source: str = ""                                     # the module file's name
    files: dict[str, str] = field(default_factory=dict)  # path relative to OUTDIR (with /) -> SHA-256


def _listing(folder: Path, limit: int = 5) -> str:
    names = []
    for i, p in enumerate(sorted(folder.iterdir())):
        if i == limit:
            names.append("…")
            break
        names.append(p.name + ("/" if p.is_dir() else ""))
    return ", ".join(names)


def check_outdir(outdir: Path) -> Record | None:
    """The record of the previous import in ``outdir``; None when ``outdir`` is new or empty; FolderTaken
    when it is a file, or a folder holding anything but an import."""
    name = str(outdir)
    try:
        if outdir.exists() and not outdir.is_dir():
            raise FolderTaken([Problem(name, "", "is a file, not a folder: the import writes a folder of maps, "
                                                 "counters and scenarios (name a new or empty folder)")])
        if not outdir.exists():
            return None
        if not any(outdir.iterdir()):
            return None
        record = outdir / RECORD
        if not record.is_file():
            raise FolderTaken([Problem(name, "", f"is not empty ({_listing(outdir)}) and is no earlier import "
                                                 f"({RECORD} is missing); the import never writes over files it did "
                                                 f"not write: name a new or empty folder")])
    except OSError as e:
        raise FolderTaken([Problem(name, "", f"cannot be used as the import's folder ({e.strerror or e})")]) from None
    return read_record(record)


def read_record(path: Path) -> Record:
    doc = read_toml(path)
    imp, files = doc.get("import"), doc.get("files")
    problems = []
    if not isinstance(imp, dict) or not isinstance(imp.get("module"), str):
        problems.append(Problem(str(path), "import.module", "expected the name of the module imported (a string)"))
    elif imp.get("format") != RECORD_FORMAT:
        problems.append(Problem(str(path), "import.format", f"expected {RECORD_FORMAT}, found "
                                                            f"{excerpt(imp.get('format'))}"))
    if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str) and len(v) == 64
                                              for k, v in files.items()):
        problems.append(Problem(str(path), "files", "expected a table of file paths and their SHA-256"))
    if problems:
        raise FolderTaken(problems)
    return Record(imp["module"], str(imp.get("source", "")), dict(files))


def check_same_module(outdir: Path, record: Record | None, module: str) -> None:
    if record is not None and record.module != module:
        raise FolderTaken([Problem(str(outdir / RECORD), "import.module",
                                   f"the folder holds an import of the module {excerpt(record.module)}, not of "
                                   f"{excerpt(module)}: name another folder")])


STALE_STAGE_SECONDS = 24 * 3600     # a staging folder this old was left by an import that was killed


def stage_beside(outdir: Path) -> Path:
    """A fresh, private folder beside ``outdir`` (the same file system, so its files are moved by renames); staging
    folders an import that was killed left there a day or more ago are removed."""
    import time

    prefix = f".{outdir.name}.import-"
    try:
        outdir.parent.mkdir(parents=True, exist_ok=True)
        for old in outdir.parent.glob(prefix + "*"):
            try:
                if old.is_dir() and not old.is_symlink() and time.time() - old.stat().st_mtime > STALE_STAGE_SECONDS:
                    shutil.rmtree(old, ignore_errors=True)
            except OSError:
                continue
        return Path(tempfile.mkdtemp(prefix=prefix, dir=outdir.parent))
    except OSError as e:
        raise BadFile([Problem(str(outdir), "", f"cannot be written ({e.strerror or e})")]) from None


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _staged_files(stage: Path) -> list[str]:
    """Every file of the staging folder, by its path relative to it (with /)."""
    out = []
    for root, _dirs, files in os.walk(stage):
        rel = os.path.relpath(root, stage).replace(os.sep, "/")
        out.extend(name if rel == "." else f"{rel}/{name}" for name in files)
    return sorted(out)


def _move_whole(stage: Path, outdir: Path) -> bool:
    """The staging folder renamed to ``outdir`` in one step, when ``outdir`` is missing or an empty folder (a new
    import: thousands of counter faces moved by one rename, not one each); False, with nothing changed, otherwise."""
    mask = os.umask(0o022)
    os.umask(mask)
    mode = 0o777 & ~mask
    try:
        if outdir.is_symlink():
            return False
        if outdir.exists():
            mode = outdir.stat().st_mode & 0o7777
            outdir.rmdir()                    # only an empty folder goes; anything in it keeps it
    except OSError:
        return False
    for root, dirs, files in os.walk(stage, topdown=False):      # as file by file: no empty folder comes along
        if root != str(stage) and not os.listdir(root):
            try:
                os.rmdir(root)
            except OSError:
                pass
    try:
        os.rename(stage, outdir)
    except OSError:
        outdir.mkdir(exist_ok=True)           # put back the empty folder; the files then move one by one
        return False
    os.chmod(outdir, mode)                    # the staging folder was private to this import
    return True


def publish(stage: Path, outdir: Path, record: Record | None, module: str, source: str) -> None:
    """Move the staged files into ``outdir``; FolderTaken, before anything moves, when one would replace a file
    the previous import did not write or that was changed since."""
    written = _staged_files(stage)
    if record is None:
        digests = {rel: sha256(stage / rel) for rel in written}
        if _move_whole(stage, outdir):
            write_toml(outdir / RECORD, {"import": {"format": RECORD_FORMAT, "module": module, "source": source},
                                         "files": digests})
            return
    old = record.files if record is not None else {}
    taken = []
    for rel in written:
        dest = outdir / rel
        for parent in list(reversed(dest.relative_to(outdir).parents))[1:]:
            if (outdir / parent).exists() and not (outdir / parent).is_dir():
                taken.append(Problem(str(outdir / parent), "", "is a file where the import writes a folder"))
        if dest.is_symlink() or dest.exists():
            if dest.is_dir() and not dest.is_symlink():
                taken.append(Problem(str(dest), "", "is a folder where the import writes a file"))
            elif rel not in old:
                taken.append(Problem(str(dest), "", "was not written by the earlier import: kept (move it away, or "
                                                    "import into a new folder)"))
            elif dest.is_symlink() or sha256(dest) != old[rel]:
                taken.append(Problem(str(dest), "", "was changed since the earlier import: kept (move it away, or "
                                                    "import into a new folder)"))
    if taken:
        raise FolderTaken(list(dict.fromkeys(taken))[:20])
    for rel, digest in old.items():                 # the earlier import's files this one does not write again
        dest = outdir / rel
        if rel not in written and rel != RECORD and dest.is_file() and not dest.is_symlink() \
                and sha256(dest) == digest:
            dest.unlink()
    digests = {rel: sha256(stage / rel) for rel in written}
    for rel in written:
        dest = outdir / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(stage / rel, dest)
    write_toml(outdir / RECORD, {"import": {"format": RECORD_FORMAT, "module": module, "source": source},
                                 "files": digests})


def remove_stage(stage: Path) -> None:
    shutil.rmtree(stage, ignore_errors=True)
