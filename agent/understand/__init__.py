"""Reading questions: the typed Interpretation, from grammar words, dates, record IDs and the mirror's own names."""

from .interpret import apply_choice, interpret
from .types import Choice, Clarification, Interpretation, LastResult

__all__ = ["interpret", "apply_choice", "Interpretation", "Clarification", "Choice", "LastResult"]
