"""The PySide6 desktop app: live, demo, review, training and calibration modes."""
