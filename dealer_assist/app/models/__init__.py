"""Qt-free models behind the app's widgets (napari pattern): plain state that emits events.

Nothing here imports Qt, so every model is tested headless; widgets subscribe with `connect`.
"""
