"""Counters: art drawn from unit data, and scanned counter sheets cut into images."""
