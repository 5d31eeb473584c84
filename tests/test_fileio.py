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
