"""Importers: other programs' files turned into Sandtable maps, counters and scenarios."""
