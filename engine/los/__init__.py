"""Line of sight: the single query, the lattice walk, the sight model, rulesets' LOS tables, viewsheds."""
