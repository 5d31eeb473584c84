"""The desktop bundle's entry point: the program, or the engine's command line as ``sandtable engine ...``."""
import sys

from gui.app import main

if __name__ == "__main__":
    sys.exit(main())
