"""The simulated table: card art, scene rendering, hand videos with ground truth, training data."""
