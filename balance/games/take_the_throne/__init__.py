"""Take the Throne (simultaneous selection; the Monarch against the Houses)."""
