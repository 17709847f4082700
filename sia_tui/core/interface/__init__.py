"""Skill Interface Documents: the checks of steps 4-6, the three-way digest comparison,
the digest forensics, the interface diff and the composition check."""
