"""Sunzi / Dynasties (Alan R. Newman, 2005): two generals fight over five regions with cards."""
