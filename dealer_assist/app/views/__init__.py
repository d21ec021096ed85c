"""The four modes' views: live, review, training, calibration."""
