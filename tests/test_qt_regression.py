"""PySide6-Essentials 6.12.0 aborts ("none_dealloc") after ~100,000 calls of a method
returning nothing; the pin excludes it and this test catches any version with the fault."""
import subprocess
import sys

CODE = """
from PySide6.QtGui import QPainterPath
p = QPainterPath()
p.moveTo(-1.0, -1.0)
for i in range(200_000):
    p.lineTo(float(i % 500), float(i % 300))
print(p.elementCount())
"""


def test_200000_calls_of_a_method_returning_none_do_not_abort():
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "200001"
