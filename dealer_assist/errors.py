"""The one exception family the CLI and app turn into a one-line message instead of a traceback."""


class DealerAssistError(Exception):
    """Bad input or an impossible request; the message says what was wrong and what is accepted."""
