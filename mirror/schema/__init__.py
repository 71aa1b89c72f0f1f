"""What the mirror holds: the dataset specs (tables, columns, keys) every other part derives from."""
