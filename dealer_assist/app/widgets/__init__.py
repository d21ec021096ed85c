"""Qt widgets; each subscribes to a Qt-free model from `dealer_assist.app.models`."""
