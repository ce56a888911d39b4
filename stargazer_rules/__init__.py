"""Stargazer's rules as validated data plus a small interpreter."""
