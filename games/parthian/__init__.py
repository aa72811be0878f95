"""Parthian Shot (designer's rules, 2012): 3-6 players bid simultaneously against Roman legions."""
