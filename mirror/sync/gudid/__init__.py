"""AccessGUDID: the delimited full release and the XML daily deltas."""
