"""A dictionary whose keys are also attributes (the return type of loaders and paths)."""

__all__ = ["Bunch"]


class Bunch(dict):
    """A dictionary whose keys are also attributes.

    Examples
    --------
    >>> b = Bunch(a=1, b=2)
    >>> b.a, b["b"]
    (1, 2)
    >>> b.c = 3
    >>> b["c"]
    3
    """

    def __init__(self, **kwargs):
        super().__init__(kwargs)

    def __setattr__(self, key, value):
        self[key] = value

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError as exc:
            raise AttributeError(key) from exc

    def __dir__(self):
        return list(self.keys())

    def __setstate__(self, state):
        # pickles of a Bunch carry no attribute state: keys live in the dict
        pass
