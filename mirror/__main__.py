"""`python -m mirror` runs the mirror command line."""

from .cli import main

main()
