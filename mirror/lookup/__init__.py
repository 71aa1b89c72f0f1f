"""Lookups over the mirror for the assistant's resolvers (device names, firm names, places): SQL stays here."""

__all__: list[str] = []
