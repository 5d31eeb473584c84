"""Players that are not rules: they choose among what a ruleset says is legal (``legal_actions``) and never hold a rule."""
