"""The start-up check names the Debian package of a missing Qt library."""
from gui.common import qtcheck


def test_sonames_map_to_debian_packages():
    assert qtcheck._package_of("libxcb-icccm.so.4") == "libxcb-icccm4"
    assert qtcheck._package_of("libxkbcommon-x11.so.0") == "libxkbcommon-x11-0"
    assert qtcheck._package_of("libEGL.so.1") == "libegl1"
    assert qtcheck._package_of("libunheard.so.3") == "libunheard.so.3"


def test_offscreen_does_not_ask_for_x11_libraries(monkeypatch):
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert qtcheck._uses_xcb() is False
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    assert qtcheck._uses_xcb() is True


def test_a_missing_library_is_reported_with_the_install_line(monkeypatch, capsys):
    monkeypatch.setattr(qtcheck, "missing_packages", lambda: ["libegl1", "fonts-dejavu-core"])
    assert qtcheck.main() == 1
    err = capsys.readouterr().err
    assert "apt-get install libegl1 fonts-dejavu-core" in err
