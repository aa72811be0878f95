"""Samurai Sword (Emiliano Sciarra, dV Giochi 2012): 3-7 players, hidden roles and teams, 12
characters, a 90-card deck; rules brief shared/rules/samurai_sword.md (SS-1..SS-21, OP-1..OP-12)."""
