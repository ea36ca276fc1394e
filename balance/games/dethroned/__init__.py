"""DETHRONED: the real-time hidden-role combat card game (KiteLion Games)."""
