"""User accounts: the custom user model, sign-up, and per-user preferences."""
