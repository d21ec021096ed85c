"""Frames in, zone observations and table events out: detectors, calibration, mapping, tracking."""
