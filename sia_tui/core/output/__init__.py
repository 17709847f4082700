"""Output: the policy every printed or written text passes, and JUnit XML."""
