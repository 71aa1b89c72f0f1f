"""Adversarial cases kept as tests: hostile bundles, paths, web origins, session ids, concurrent writers."""
