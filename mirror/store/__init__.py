"""The mirror's files on disk: publishing, staging, locks, sync state, and the one read connection."""
