"""Atomic writes and TOML reading errors (DESIGN invariants 3 and 5)."""
import os
import stat

import pytest

from engine.errors import BadFile
from engine.fileio import atomic_write_text, read_toml


def test_atomic_write_leaves_no_temp_file_and_a_readable_mode(tmp_path):
    p = tmp_path / "a.toml"
    atomic_write_text(p, 'x = 1\n')
    assert read_toml(p) == {"x": 1}
    assert [f.name for f in tmp_path.iterdir()] == ["a.toml"]



def test_a_new_file_gets_the_ordinary_mode_and_a_replaced_file_keeps_its_own(tmp_path):
    old = os.umask(0o022)
    try:
        p = tmp_path / "new.toml"
        atomic_write_text(p, "x = 1\n")
        assert stat.S_IMODE(os.stat(p).st_mode) == 0o644
        os.chmod(p, 0o600)
        atomic_write_text(p, "x = 2\n")
        assert stat.S_IMODE(os.stat(p).st_mode) == 0o600
    finally:
        os.umask(old)


def test_a_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    p = tmp_path / "a.toml"
    atomic_write_text(p, 'x = 1\n')

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError):
        atomic_write_text(p, 'x = 2\n' * 1000)
    assert p.read_text() == 'x = 1\n'
    assert sorted(f.name for f in tmp_path.iterdir()) == ["a.toml"]


def test_syntax_error_names_file_and_line(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('[map]\nname = "x"\norientation = \n')
    with pytest.raises(BadFile) as e:
        read_toml(p)
    (prob,) = e.value.problems
    assert prob.file == str(p) and prob.line == 3
    assert str(prob).startswith(f"{p}:3: ")


def test_missing_file_is_named(tmp_path):
    with pytest.raises(BadFile, match="file not found"):
        read_toml(tmp_path / "nope.toml")


# ---------------------------------------------------------------- hostile TOML and interrupted writes

@pytest.mark.parametrize("text, what", [
    ("a = " + "[" * 3000 + "]" * 3000 + "\n", "nested too deep"),
    ("a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n", "nested too deep"),
    ("[" + ".".join(["t"] * 5000) + "]\n", "nested too deep"),
    ("a = " + "9" * 5000 + "\n", "an integer of more than 4300 digits"),
])
def test_toml_the_reader_cannot_hold_is_a_bad_file_naming_the_file(tmp_path, text, what):
    p = tmp_path / "hostile.toml"
    p.write_text('# a file\n[x]\n' + text)
    with pytest.raises(BadFile) as e:
        read_toml(p)
    (prob,) = e.value.problems
    assert prob.file == str(p) and what in prob.message and prob.line == 3


def test_a_stale_temporary_file_is_removed_by_the_next_save(tmp_path):
    p = tmp_path / "game.toml"
    stale = tmp_path / ".game.toml.ab12cd34.tmp"        # an earlier save killed before its rename
    stale.write_text("x = ")
    os.utime(stale, (1_000_000, 1_000_000))
    fresh = tmp_path / ".game.toml.zz98yy76.tmp"        # a save in progress right now elsewhere
    fresh.write_text("x = ")
    other = tmp_path / ".notes.toml.ab12cd34.tmp"       # another file's: not this save's business
    other.write_text("x = ")
    os.utime(other, (1_000_000, 1_000_000))
    mine = tmp_path / "keep.tmp"
    mine.write_text("the user's own file")
    os.utime(mine, (1_000_000, 1_000_000))
    atomic_write_text(p, "x = 1\n")
    assert sorted(f.name for f in tmp_path.iterdir()) == sorted(
        ["game.toml", fresh.name, other.name, "keep.tmp"])


def test_stale_temporary_files_of_a_folder_are_removed_at_start(tmp_path):
    from engine.fileio import remove_stale_temps

    for name in (".autosave.toml.k3j4h5g6.tmp", ".recent.toml.a1b2c3d4.tmp"):
        (tmp_path / name).write_text("")
        os.utime(tmp_path / name, (1_000_000, 1_000_000))
    (tmp_path / "autosave.toml").write_text("x = 1\n")
    removed = remove_stale_temps(tmp_path)
    assert len(removed) == 2 and [f.name for f in tmp_path.iterdir()] == ["autosave.toml"]


def test_the_folder_is_synced_after_the_rename(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync

    def fsync(fd):
        synced.append((stat.S_ISDIR(os.fstat(fd).st_mode), os.path.exists(tmp_path / "a.toml")))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    atomic_write_text(tmp_path / "a.toml", "x = 1\n")
    # the data first (a file, target not there yet), then the folder once the rename is done
    assert synced == [(False, False), (True, True)]
