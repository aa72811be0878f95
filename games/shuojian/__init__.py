"""Shuo Jian (說劍 — 企硬! 唔take嘢): the two-player sword duel of number cards with printed
conditions (rules brief: shared/rules/shuo_jian.md; code map: games/shuojian/RULES.md)."""
