"""The owner's printed charts in the program: the chart prompt in play, the chart editor, counter values."""
