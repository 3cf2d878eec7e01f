"""Learning from the person's own applications: saved answers and finding similar questions."""
