"""``python -m gui [FILE]``: the program, as ``sandtable [FILE]`` starts it."""
import sys

from gui.app import main

sys.exit(main())
