"""User operations on a synced mirror: status and verify, air-gap bundle export, the seed snapshot."""
