"""Help inside the program: the project's documents rendered from Markdown, the rules reference of each game,
the About box."""
