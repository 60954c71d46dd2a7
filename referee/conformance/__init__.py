"""The conformance suite: recorded games ("cases"), their format, export and replay."""
