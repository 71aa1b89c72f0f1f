"""The desktop app (placeholder until the app issue): depends on agent and mirror."""

__all__: list[str] = []
