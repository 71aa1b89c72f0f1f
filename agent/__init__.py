"""The assistant (placeholder until the agent issue): depends on mirror only."""

__all__: list[str] = []
