"""What a seat is shown at the table, as context and HTML."""
